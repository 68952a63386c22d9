import { useState } from 'preact/hooks';
import { api, messageOf, v3 } from '../api';
import { useBucket } from '../bucket';
import { thumbnailUrl } from '../fields/media-picker';
import type { Media } from '../types';
import { ErrorText, formText } from '../ui';
import { FolderOptions, type Folder } from './media-folders';

interface Props {
  media: Media;
  folders: Folder[];
  selected: boolean;
  onSelect: (selected: boolean) => void;
  /** After a write: the item as the API answered it. */
  onSaved: (media: Media, what: string) => void;
  onDelete: () => void;
}

/**
 * The thumbnail address, changing whenever the item does: a replaced file keeps its URL, and the
 * browser would otherwise keep showing the processed image it cached for the old bytes.
 */
function freshThumbnail(m: Media): string {
  return `${thumbnailUrl(m, 240)}&v=${encodeURIComponent(m.modified_at ?? '')}`;
}

/** One media item: select, alt text, and (behind "Edit") rename, move, replace, delete. */
export function MediaCard({ media: m, folders, selected, onSelect, onSaved, onDelete }: Props) {
  const bucket = useBucket();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const path = v3(bucket.slug, `media/${m.id}`);
  const titleOf = (slug: string) => folders.find((f) => f.slug === slug)?.title ?? slug;

  /** Sends one write; the answer replaces the item shown. */
  const write = async (what: string, call: () => Promise<{ media: Media }>) => {
    setError(null);
    setBusy(true);
    try {
      onSaved((await call()).media, what);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const patch = (what: string, body: Record<string, unknown>) =>
    write(what, () => api<{ media: Media }>('PATCH', path, { body }));

  const replace = (file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append('media', file);
    void write(`File of ${m.original_name} replaced`, () =>
      api<{ media: Media }>('PUT', `${path}/file`, { body: form }),
    );
  };

  return (
    <li class={`media-card${selected ? ' selected' : ''}`} aria-busy={busy}>
      <label class="media-select">
        <input
          type="checkbox"
          checked={selected}
          aria-label={`Select ${m.original_name}`}
          onChange={(e) => {
            onSelect(e.currentTarget.checked);
          }}
        />
      </label>
      {m.type.startsWith('image/') ? (
        <img src={freshThumbnail(m)} alt={m.alt_text ?? ''} width={160} height={160} loading="lazy" />
      ) : (
        <span class="file-icon">{m.type}</span>
      )}
      <a href={m.url} target="_blank" rel="noreferrer" class="name">
        {m.original_name}
      </a>
      <span class="muted">{m.folder ? `Folder: ${titleOf(m.folder)}` : 'No folder'}</span>
      <label>
        Alt text for {m.original_name}
        <input
          type="text"
          defaultValue={m.alt_text ?? ''}
          onChange={(e) => void patch('Alt text saved', { alt_text: e.currentTarget.value })}
        />
      </label>
      <ErrorText message={error} />
      <button
        type="button"
        aria-expanded={editing}
        onClick={() => {
          setEditing(!editing);
        }}
      >
        Edit<span class="sr-only"> {m.original_name}</span>
      </button>
      {editing ? (
        <div class="media-edit">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const name = formText(new FormData(e.currentTarget), 'original_name');
              void patch(`Renamed to ${name.trim()}`, { original_name: name });
            }}
          >
            <label>
              Name<span class="sr-only"> of {m.original_name}</span>
              <input type="text" name="original_name" required maxLength={255} defaultValue={m.original_name} />
            </label>
            <button type="submit">Save name</button>
          </form>
          <label>
            Folder<span class="sr-only"> of {m.original_name}</span>
            <select
              value={m.folder ?? ''}
              onChange={(e) => {
                const to = e.currentTarget.value;
                void patch(to ? `Moved to ${titleOf(to)}` : 'Moved out of folders', { folder: to || null });
              }}
            >
              <FolderOptions folders={folders} none />
            </select>
          </label>
          <label>
            Replace file<span class="sr-only"> of {m.original_name}</span>
            <input
              type="file"
              accept={m.type.startsWith('image/') ? 'image/*' : undefined}
              onChange={(e) => {
                replace(e.currentTarget.files?.[0]);
                e.currentTarget.value = '';
              }}
            />
          </label>
          <button type="button" class="danger" onClick={onDelete}>
            Delete {m.original_name}
          </button>
        </div>
      ) : null}
    </li>
  );
}
