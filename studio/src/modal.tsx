import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

interface ModalProps {
  title: string;
  /** `alertdialog` for a decision the page waits on (a conflict, leaving with unsaved work). */
  role?: 'dialog' | 'alertdialog';
  /** Escape, or the page closing it: the same as the choice that changes nothing. */
  onDismiss: () => void;
  children: ComponentChildren;
  class?: string;
  /** The id of the text that says what the decision is about, read out with the title. */
  describedBy?: string;
}

/**
 * A modal dialog, open while it is rendered: the browser's own <dialog> keeps focus inside it
 * and the rest of the page inert, and its heading names it.
 */
export function Modal({ title, role = 'dialog', onDismiss, children, class: extra, describedBy }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const heading = useId();
  useEffect(() => {
    const dialog = ref.current;
    dialog?.showModal();
    return () => {
      dialog?.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class={`modal${extra ? ` ${extra}` : ''}`}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={heading}
      aria-describedby={describedBy}
      onCancel={(e) => {
        e.preventDefault();
        onDismiss();
      }}
    >
      <h2 id={heading}>{title}</h2>
      {children}
    </dialog>
  );
}
