import { useState } from 'preact/hooks';
import { api, ApiError, apiList, messageOf, v3 } from '../api';
import { useBucket } from '../bucket';
import { ErrorText, formText } from '../ui';

export interface Folder {
  id: string | null;
  slug: string;
  title: string;
  media_count: number;
}

/** The folders as a select's options, each named by its title; `none` first offers "No folder". */
export function FolderOptions({ folders, none = false }: { folders: Folder[]; none?: boolean }) {
  return (
    <>
      {none ? <option value="">No folder</option> : null}
      {folders.map((f) => (
        <option key={f.slug} value={f.slug}>
          {f.title}
        </option>
      ))}
    </>
  );
}

export async function loadFolders(bucket: string): Promise<Folder[]> {
  const empty = { folders: [] as Folder[] };
  const { folders } = await apiList(v3(bucket, 'media-folders'), { useCache: 'false' }, empty);
  return folders;
}

type Mode = 'new' | 'rename' | 'move' | null;

interface Props {
  folders: Folder[];
  /** The chosen folder's slug, '' for all media. */
  selected: string;
  onSelect: (slug: string) => void;
  /** After a folder write: reload, showing `slug` ('' for all). */
  onChanged: (slug: string) => void;
}

/** Chooses the folder shown and uploaded into; creates, renames and deletes folders. */
export function FolderBar({ folders, selected, onSelect, onChanged }: Props) {
  const bucket = useBucket();
  const [mode, setMode] = useState<Mode>(null);
  const [error, setError] = useState<string | null>(null);
  const current = folders.find((f) => f.slug === selected);
  const others = folders.filter((f) => f.slug !== selected);
  const path = (slug: string) => v3(bucket.slug, `media-folders/${encodeURIComponent(slug)}`);

  const toggle = (next: Mode) => {
    setError(null);
    setMode(mode === next ? null : next);
  };

  /** Runs one folder write; on success closes the form and shows `then(answer)`. */
  const write = async <T,>(call: () => Promise<T>, then: (answer: T) => string) => {
    setError(null);
    try {
      const answer = await call();
      setMode(null);
      onChanged(then(answer));
    } catch (err) {
      setError(messageOf(err));
      // The API refuses to delete a folder that holds media: offer to move them first.
      if (err instanceof ApiError && err.code === 'folder_has_media') setMode('move');
    }
  };

  const submitted = (e: Event) => {
    e.preventDefault();
    return new FormData(e.currentTarget as HTMLFormElement);
  };

  return (
    <>
      <div class="filters folder-bar">
        <label>
          Folder
          <select
            value={selected}
            onChange={(e) => {
              setMode(null);
              setError(null);
              onSelect(e.currentTarget.value);
            }}
          >
            <option value="">All</option>
            {folders.map((f) => (
              <option key={f.slug} value={f.slug}>
                {f.title} ({f.media_count})
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          aria-expanded={mode === 'new'}
          onClick={() => {
            toggle('new');
          }}
        >
          New folder
        </button>
        {current ? (
          <>
            <button
              type="button"
              aria-expanded={mode === 'rename'}
              onClick={() => {
                toggle('rename');
              }}
            >
              Rename folder
            </button>
            <button
              type="button"
              class="danger"
              onClick={() => {
                if (!confirm(`Delete folder ${current.title}?`)) return;
                void write(
                  () => api('DELETE', path(current.slug)),
                  () => '',
                );
              }}
            >
              Delete folder
            </button>
          </>
        ) : null}
      </div>
      {mode === 'new' ? (
        <form
          class="filters folder-bar"
          onSubmit={(e) => {
            const title = formText(submitted(e), 'title');
            void write(
              () => api<{ folder: Folder }>('POST', v3(bucket.slug, 'media-folders'), { body: { title } }),
              (a) => a.folder.slug,
            );
          }}
        >
          <label>
            Folder title
            <input type="text" name="title" required maxLength={200} />
          </label>
          <button type="submit" class="primary">
            Create folder
          </button>
        </form>
      ) : null}
      {mode === 'rename' && current ? (
        <form
          class="filters folder-bar"
          onSubmit={(e) => {
            const title = formText(submitted(e), 'title');
            void write(
              () => api('PATCH', path(current.slug), { body: { title } }),
              () => current.slug,
            );
          }}
        >
          <label>
            New folder title
            <input type="text" name="title" required maxLength={200} defaultValue={current.title} />
          </label>
          <button type="submit" class="primary">
            Save folder title
          </button>
        </form>
      ) : null}
      <ErrorText message={error} />
      {mode === 'move' && current ? (
        others.length === 0 ? (
          <p class="muted">Create another folder to move this folder's media into, then delete it.</p>
        ) : (
          <form
            class="filters folder-bar"
            onSubmit={(e) => {
              const to = formText(submitted(e), 'move_to');
              void write(
                () => api('DELETE', path(current.slug), { query: { move_to: to } }),
                () => to,
              );
            }}
          >
            <label>
              Move media to
              <select name="move_to">
                <FolderOptions folders={others} />
              </select>
            </label>
            <button type="submit" class="danger">
              Move media and delete
            </button>
          </form>
        )
      ) : null}
    </>
  );
}
