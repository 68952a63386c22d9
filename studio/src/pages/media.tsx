import { useEffect, useState } from 'preact/hooks';
import { api, messageOf, uploadMedia, v3 } from '../api';
import { useBucket } from '../bucket';
import { searchMedia, thumbnailUrl } from '../fields/media-picker';
import type { Media } from '../types';
import { ErrorText, PageHeader, TextInput } from '../ui';
import { FolderBar, loadFolders, type Folder } from './media-folders';

interface Upload {
  name: string;
  progress: number;
  error?: string;
}

/** The Bucket's media: folders, a grid of thumbnails, uploads with progress, alt text, delete, search. */
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

  useEffect(() => {
    searchMedia(bucket.slug, search, 60, folder).then(setItems, (err: unknown) => {
      setError(messageOf(err));
    });
  }, [search, folder, reload]);

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

  const saveAlt = async (m: Media, alt_text: string) => {
    try {
      await api('PATCH', v3(bucket.slug, `media/${m.id}`), { body: { alt_text } });
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const remove = async (m: Media) => {
    if (!confirm(`Delete ${m.original_name}?`)) return;
    try {
      await api('DELETE', v3(bucket.slug, `media/${m.id}`));
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
      <ul class="media-grid">
        {items.map((m) => (
          <li key={m.id} class="media-card">
            {m.type.startsWith('image/') ? (
              <img src={thumbnailUrl(m, 240)} alt={m.alt_text ?? ''} width={160} height={160} loading="lazy" />
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
                onChange={(e) => void saveAlt(m, e.currentTarget.value)}
              />
            </label>
            <button type="button" class="danger" onClick={() => void remove(m)}>
              Delete {m.original_name}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
