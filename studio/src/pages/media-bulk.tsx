import { useState } from 'preact/hooks';
import { Modal } from '../modal';
import { FolderOptions, type Folder } from './media-folders';

interface Props {
  /** How many items the page shows, and how many of them are selected. */
  shown: number;
  count: number;
  folders: Folder[];
  onSelectAll: (all: boolean) => void;
  /** Moves the selected items to the folder with this slug ('' for none). */
  onMove: (folder: string) => void;
  /** Deletes the selected items; asked only once the dialog is confirmed. */
  onDelete: () => void;
}

const items = (n: number) => `${n} media item${n === 1 ? '' : 's'}`;

/** "Select all", and what can be done to the selected media: move them to a folder, or delete them. */
export function MediaBulkBar({ shown, count, folders, onSelectAll, onMove, onDelete }: Props) {
  const [moveTo, setMoveTo] = useState('');
  const [confirming, setConfirming] = useState(false);
  const cancel = () => {
    setConfirming(false);
  };

  if (shown === 0) return null;
  return (
    <div class="batch media-batch" role="group" aria-label="Selected media">
      <label class="check">
        <input
          type="checkbox"
          checked={count > 0 && count === shown}
          ref={(el) => {
            // Some but not all: neither "all" nor "none" describes it.
            if (el) el.indeterminate = count > 0 && count < shown;
          }}
          onChange={(e) => {
            onSelectAll(e.currentTarget.checked);
          }}
        />
        Select all
      </label>
      {count > 0 ? (
        <>
          <span>{count} selected</span>
          <label>
            Move selected to
            <select
              value={moveTo}
              onChange={(e) => {
                setMoveTo(e.currentTarget.value);
              }}
            >
              <FolderOptions folders={folders} none />
            </select>
          </label>
          <button
            type="button"
            onClick={() => {
              onMove(moveTo);
            }}
          >
            Move
          </button>
          <button
            type="button"
            class="danger"
            onClick={() => {
              setConfirming(true);
            }}
          >
            Delete selected
          </button>
        </>
      ) : null}
      {confirming ? (
        <Modal title={`Delete ${items(count)}?`} onDismiss={cancel} class="confirm">
          <p>Their files and URLs stop working; Objects that name them keep the names.</p>
          <div class="form-actions">
            <button
              type="button"
              class="danger"
              onClick={() => {
                setConfirming(false);
                onDelete();
              }}
            >
              Delete {items(count)}
            </button>
            <button type="button" onClick={cancel}>
              Cancel
            </button>
          </div>
        </Modal>
      ) : null}
    </div>
  );
}
