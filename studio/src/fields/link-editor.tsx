import { useEffect, useRef, useState } from 'preact/hooks';
import { checkLinkAddress } from '../../../lib/util/link-address';
import type { RichTextEditor } from '../editors/rich-text';

/**
 * The rich-text toolbar's link: an inline field (no prompt) to add, change or remove the link on
 * the selection. It sits inside the editor's form, so Enter applies the link instead of saving.
 */
export function LinkEditor({ editor, fieldId }: { editor: () => RichTextEditor | null; fieldId: string }) {
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState('');
  const [current, setCurrent] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = `${fieldId}-link`;
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  const start = () => {
    const href = editor()?.linkAt() ?? null;
    setCurrent(href);
    setAddress(href ?? '');
    setProblem(null);
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    setProblem(null);
  };
  const apply = () => {
    const check = checkLinkAddress(address);
    if ('problem' in check) {
      setProblem(check.problem);
      return;
    }
    editor()?.setLink(check.href);
    close();
  };
  const remove = () => {
    editor()?.unsetLink();
    close();
  };

  return (
    <>
      <button type="button" aria-expanded={open} aria-controls={open ? inputId : undefined} onClick={start}>
        Link
      </button>
      {open ? (
        <div class="link-editor" role="group" aria-label="Link">
          <label for={inputId}>Link address</label>
          <input
            id={inputId}
            type="text"
            inputMode="url"
            autoComplete="url"
            value={address}
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${inputId}-problem` : undefined}
            ref={input}
            onInput={(e) => {
              setAddress(e.currentTarget.value);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                apply();
              } else if (e.key === 'Escape') {
                e.preventDefault();
                close();
              }
            }}
          />
          <button type="button" onClick={apply}>
            {current ? 'Change link' : 'Add link'}
          </button>
          {current ? (
            <button type="button" onClick={remove}>
              Remove link
            </button>
          ) : null}
          <button type="button" onClick={close}>
            Cancel
          </button>
          {problem ? (
            <small id={`${inputId}-problem`} class="error" role="alert">
              {problem}
            </small>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
