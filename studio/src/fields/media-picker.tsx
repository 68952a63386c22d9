import { useEffect, useRef, useState } from 'preact/hooks';
import { apiList, messageOf, uploadMedia, v3 } from '../api';
import { useBucket } from '../bucket';
import type { Media } from '../types';
import { ErrorText, TextInput } from '../ui';
import { FieldGroup, type FieldProps } from './common';

export function thumbnailUrl(m: { imgproc_url: string; type?: string }, width = 160): string {
  return `${m.imgproc_url}?w=${width}&h=${width}&fit=cover&fm=webp`;
}

/** Media of the Bucket, newest first, matching a piece of the name. */
export async function searchMedia(bucket: string, text: string, limit = 24, folder?: string): Promise<Media[]> {
  const query = text.trim()
    ? { original_name: { $regex: text.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), $options: 'i' } }
    : {};
  const { media } = await apiList<{ media: Media[] }>(
    v3(bucket, 'media'),
    { query: JSON.stringify(query), sort: '-created_at', limit, folder, useCache: 'false' },
    { media: [] },
  );
  return media;
}

/** A file Metafield: the chosen media's thumbnail, and a picker (with upload) in a dialog. */
export function FileField(props: FieldProps) {
  const bucket = useBucket();
  const name = typeof props.value === 'string' ? props.value : '';
  const dialog = useRef<HTMLDialogElement>(null);
  const [search, setSearch] = useState('');
  const [items, setItems] = useState<Media[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState<Media | null>(null);

  useEffect(() => {
    if (!open) return;
    searchMedia(bucket.slug, search).then(setItems, (err: unknown) => {
      setError(messageOf(err));
    });
  }, [open, search]);

  useEffect(() => {
    if (!name) {
      setCurrent(null);
      return;
    }
    if (current?.name === name) return;
    apiList<{ media: Media[] }>(
      v3(bucket.slug, 'media'),
      { query: JSON.stringify({ name }), limit: 1 },
      { media: [] },
    ).then(
      (r) => {
        setCurrent(r.media[0] ?? null);
      },
      () => {
        setCurrent(null);
      },
    );
  }, [name]);

  const choose = (m: Media) => {
    setCurrent(m);
    props.onChange(m.name);
    dialog.current?.close();
    setOpen(false);
  };

  const upload = async (files: FileList | null) => {
    if (!files?.length) return;
    setError(null);
    try {
      for (const file of Array.from(files)) {
        const { media } = (await uploadMedia(bucket.slug, file, () => undefined)) as { media: Media };
        choose(media);
      }
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const accept = props.mf.media_validation_type ? `${props.mf.media_validation_type}/*` : undefined;
  return (
    <FieldGroup props={props}>
      <div class="file-value">
        {current && current.type.startsWith('image/') ? (
          <img src={thumbnailUrl(current, 96)} alt={current.alt_text || current.original_name} width={96} height={96} />
        ) : null}
        <span>{current ? current.original_name : name || 'No file'}</span>
        <button
          type="button"
          onClick={() => {
            setOpen(true);
            dialog.current?.showModal();
          }}
        >
          Choose {props.mf.title}
        </button>
        {name ? (
          <button
            type="button"
            onClick={() => {
              props.onChange('');
            }}
          >
            Remove {props.mf.title}
          </button>
        ) : null}
      </div>
      <dialog
        ref={dialog}
        class="picker"
        aria-label={`Choose ${props.mf.title}`}
        onClose={() => {
          setOpen(false);
        }}
      >
        <div class="picker-head">
          <TextInput type="search" label="Search media" value={search} onValue={setSearch} />
          <label>
            Upload to {props.mf.title}
            <input type="file" accept={accept} onChange={(e) => void upload(e.currentTarget.files)} />
          </label>
          <button type="button" onClick={() => dialog.current?.close()}>
            Close
          </button>
        </div>
        <ErrorText message={error} />
        <ul class="media-grid">
          {items.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                onClick={() => {
                  choose(m);
                }}
                aria-label={`Choose ${m.original_name}`}
              >
                {m.type.startsWith('image/') ? (
                  <img src={thumbnailUrl(m)} alt="" width={120} height={120} loading="lazy" />
                ) : (
                  <span class="file-icon">{m.type}</span>
                )}
                <span class="name">{m.original_name}</span>
              </button>
            </li>
          ))}
        </ul>
      </dialog>
    </FieldGroup>
  );
}
