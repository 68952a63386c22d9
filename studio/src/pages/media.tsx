import { useEffect, useState } from 'preact/hooks';
import { api, messageOf, uploadMedia, v3 } from '../api';
import { useBucket } from '../bucket';
import { searchMedia } from '../fields/media-picker';
import type { Media } from '../types';
import { ErrorText, Notice, PageHeader, TextInput } from '../ui';
import { MediaBulkBar } from './media-bulk';
import { MediaCard } from './media-card';
import { FolderBar, loadFolders, type Folder } from './media-folders';

/** How long a status stays in sight. */
const NOTICE_MS = 6000;
const countOf = (n: number) => `${n} media item${n === 1 ? '' : 's'}`;

interface Upload {
  name: string;
  progress: number;
  error?: string;
}

/**
 * The Bucket's media: folders, a grid of cards (media-card.tsx: alt text, rename, move, replace,
 * delete), uploads with progress, search, and actions on a selection (media-bulk.tsx).
 */
export function MediaPage() {
  const bucket = useBucket();
  const [items, setItems] = useState<Media[]>([]);
  const [search, setSearch] = useState('');
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [folders, setFolders] = useState<Folder[]>([]);
  const [folder, setFolder] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    searchMedia(bucket.slug, search, 60, folder).then(
      (found) => {
        setItems(found);
        // Only what is shown stays selected: a hidden item must never be moved or deleted unseen.
        setChosen((c) => new Set(found.filter((m) => c.has(m.id)).map((m) => m.id)));
      },
      (err: unknown) => {
        setError(messageOf(err));
      },
    );
  }, [search, folder, reload]);

  // The status floats over the grid's bottom edge: it goes once read, so it never hides a card for long.
  useEffect(() => {
    if (!notice) return undefined;
    const timer = setTimeout(() => {
      setNotice(null);
    }, NOTICE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [notice]);

  useEffect(() => {
    loadFolders(bucket.slug).then(setFolders, (err: unknown) => {
      setError(messageOf(err));
    });
  }, [reload]);

  const titleOf = (slug: string) => folders.find((f) => f.slug === slug)?.title ?? slug;

  const upload = async (files: File[]) => {
    const start = uploads.length;
    setUploads((u) => [...u, ...files.map((f) => ({ name: f.name, progress: 0 }))]);
    const patch = (i: number, change: Partial<Upload>) => {
      setUploads((u) => u.map((x, j) => (j === start + i ? { ...x, ...change } : x)));
    };
    await Promise.all(
      files.map(async (file, i) => {
        try {
          await uploadMedia(
            bucket.slug,
            file,
            (p) => {
              patch(i, { progress: p });
            },
            folder,
          );
          patch(i, { progress: 1 });
        } catch (err) {
          patch(i, { error: messageOf(err) });
        }
      }),
    );
    setReload((n) => n + 1);
  };

  /** A card's write: the item shown as answered, and the page's status says what happened. */
  const saved = (m: Media, what: string) => {
    setNotice(what);
    if (m.folder !== items.find((x) => x.id === m.id)?.folder) setReload((n) => n + 1);
    else setItems((all) => all.map((x) => (x.id === m.id ? m : x)));
  };

  /** Runs one call per selected item; reports how many failed and why, and reloads. */
  const forSelected = async (done: (n: number) => string, call: (id: string) => Promise<unknown>) => {
    setError(null);
    setNotice(null);
    const ids = items.filter((m) => chosen.has(m.id)).map((m) => m.id);
    const results = await Promise.allSettled(ids.map(call));
    const failed = results.filter((r) => r.status === 'rejected');
    const [firstFailure] = failed;
    if (firstFailure) setError(`${failed.length} of ${ids.length} failed: ${messageOf(firstFailure.reason)}`);
    if (failed.length < ids.length) setNotice(done(ids.length - failed.length));
    setChosen(new Set());
    setReload((n) => n + 1);
  };
  const path = (id: string) => v3(bucket.slug, `media/${id}`);
  const moveSelected = (to: string) =>
    forSelected(
      (n) => `Moved ${countOf(n)} ${to ? `to ${titleOf(to)}` : 'out of folders'}`,
      (id) => api('PATCH', path(id), { body: { folder: to || null } }),
    );
  const deleteSelected = () =>
    forSelected(
      (n) => `Deleted ${countOf(n)}`,
      (id) => api('DELETE', path(id)),
    );

  const remove = async (m: Media) => {
    if (!confirm(`Delete ${m.original_name}?`)) return;
    try {
      await api('DELETE', path(m.id));
      setNotice(`Deleted ${m.original_name}`);
      setReload((n) => n + 1);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <>
      <PageHeader title="Media" />
      <FolderBar
        folders={folders}
        selected={folder}
        onSelect={setFolder}
        onChanged={(slug) => {
          setFolder(slug);
          setReload((n) => n + 1);
        }}
      />
      <div
        class={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => {
          setDragging(false);
        }}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          void upload(Array.from(e.dataTransfer?.files ?? []));
        }}
      >
        <label>
          Upload
          <input
            type="file"
            multiple
            onChange={(e) => {
              void upload(Array.from(e.currentTarget.files ?? []));
              e.currentTarget.value = '';
            }}
          />
        </label>
        <span class="muted">or drop files here{folder ? ` (into folder ${titleOf(folder)})` : ''}</span>
      </div>
      {uploads.length > 0 ? (
        <ul class="uploads" aria-label="Uploads">
          {uploads.map((u, i) => (
            <li key={i}>
              <span>{u.name}</span>
              <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
              {u.error ? (
                <span class="error" role="alert">
                  {u.error}
                </span>
              ) : u.progress === 1 ? (
                <span>done</span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <TextInput type="search" labelClass="search" label="Search media" value={search} onValue={setSearch} />
      <ErrorText message={error} />
      <MediaBulkBar
        shown={items.length}
        count={chosen.size}
        folders={folders}
        onSelectAll={(all) => {
          setChosen(new Set(all ? items.map((m) => m.id) : []));
        }}
        onMove={(to) => void moveSelected(to)}
        onDelete={() => void deleteSelected()}
      />
      <ul class="media-grid">
        {items.map((m) => (
          <MediaCard
            key={m.id}
            media={m}
            folders={folders}
            selected={chosen.has(m.id)}
            onSelect={(on) => {
              setChosen((c) => {
                const next = new Set(c);
                if (on) next.add(m.id);
                else next.delete(m.id);
                return next;
              });
            }}
            onSaved={saved}
            onDelete={() => void remove(m)}
          />
        ))}
      </ul>
      {/* After the grid and sticky: a long grid keeps it in sight at the bottom of the window. */}
      <div class="media-status">
        <Notice message={notice} />
      </div>
    </>
  );
}
