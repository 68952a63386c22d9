import { Fragment } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { SHORTCUTS, typesText } from './shortcuts';

// The help opens from anywhere (the shell's button, the `?` key) without a prop through every
// page: a window event names the request, and the one dialog App renders answers it.
const OPEN_EVENT = 'studio:shortcuts';

export function openShortcuts(): void {
  window.dispatchEvent(new Event(OPEN_EVENT));
}

/** The "Keyboard shortcuts" dialog: modal, so focus stays inside; Escape closes it (the browser's own). */
export function ShortcutsHelp() {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const open = () => {
      if (dialog.current && !dialog.current.open) dialog.current.showModal();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.ctrlKey || e.metaKey || e.altKey || typesText(e.target)) return;
      e.preventDefault();
      open();
    };
    window.addEventListener(OPEN_EVENT, open);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener(OPEN_EVENT, open);
      window.removeEventListener('keydown', onKey);
    };
  }, []);

  return (
    <dialog ref={dialog} class="shortcuts" aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <dl>
        {SHORTCUTS.map((s) => (
          <Fragment key={s.action}>
            <dt>
              {s.keys.map((combo, i) => (
                <Fragment key={combo.join('+')}>
                  {i > 0 ? ' or ' : null}
                  {combo.map((key, j) => (
                    <Fragment key={key}>
                      {j > 0 ? '+' : null}
                      <kbd>{key}</kbd>
                    </Fragment>
                  ))}
                </Fragment>
              ))}
            </dt>
            <dd>{s.action}</dd>
          </Fragment>
        ))}
      </dl>
      <button type="button" onClick={() => dialog.current?.close()}>
        Close
      </button>
    </dialog>
  );
}
