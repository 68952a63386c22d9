import { useEffect, useRef, useState } from 'preact/hooks';
import { Modal } from '../modal';
import { guardLeaving } from '../router';

/**
 * Keeps typed work from being lost: leaving through a link or the browser's back asks first (the
 * returned dialog, rendered by the page), closing or reloading the tab asks through the browser.
 * `dirty` is read when the person leaves, so it may be a ref-backed function.
 */
export function useLeaveGuard(dirty: () => boolean) {
  const [leaving, setLeaving] = useState<(() => void) | null>(null);
  const isDirty = useRef(dirty);
  isDirty.current = dirty;
  useEffect(() => {
    const remove = guardLeaving({
      blocks: () => isDirty.current(),
      ask: (leave) => {
        setLeaving(() => leave);
      },
    });
    const onUnload = (e: BeforeUnloadEvent) => {
      if (!isDirty.current()) return;
      // The browser then asks whether to leave; its wording is its own.
      e.preventDefault();
    };
    window.addEventListener('beforeunload', onUnload);
    return () => {
      remove();
      window.removeEventListener('beforeunload', onUnload);
    };
  }, []);
  const dialog = leaving ? (
    <Modal
      title="Leave without saving?"
      role="alertdialog"
      onDismiss={() => {
        setLeaving(null);
      }}
    >
      <p>Your changes to this Object are not saved. If you leave now, they are lost.</p>
      <div class="form-actions">
        <button
          type="button"
          class="primary"
          onClick={() => {
            setLeaving(null);
          }}
        >
          Stay
        </button>
        <button
          type="button"
          class="danger"
          onClick={() => {
            setLeaving(null);
            leaving();
          }}
        >
          Leave
        </button>
      </div>
    </Modal>
  ) : null;
  return dialog;
}

/** Ctrl+S (Cmd+S on a Mac) runs `save` instead of the browser's "save page". */
export function useSaveShortcut(save: () => void) {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== 's') return;
      e.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, []);
}

/** How long typing must pause before a draft saves itself. */
export const AUTOSAVE_MS = 1500;

/**
 * Saves a draft once typing pauses: `ready` says whether a save may start now (work unsaved, no
 * save running, no conflict waiting). Every change of `trigger` restarts the wait.
 */
export function useAutosave(ready: boolean, trigger: unknown, save: () => void) {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    if (!ready) return;
    const timer = setTimeout(() => {
      latest.current();
    }, AUTOSAVE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [ready, trigger]);
}

/** The line that says where typed work stands (announced politely as it changes). */
export function SaveState({ saving, dirty, saved }: { saving: boolean; dirty: boolean; saved: boolean }) {
  const text = saving ? 'Saving…' : dirty ? 'Unsaved changes' : saved ? 'Saved' : '';
  return (
    <p class={`save-state${dirty && !saving ? ' unsaved' : ''}`} role="status">
      {text}
    </p>
  );
}
