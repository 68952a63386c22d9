import { useState } from 'preact/hooks';
import { api, messageOf, v3 } from '../api';
import { useBucket } from '../bucket';
import type { Metafield, ObjectType } from '../types';
import { Modal } from '../modal';
import { ErrorText, TextInput } from '../ui';

export interface KeyRenamed {
  type: ObjectType;
  key: string;
  objectsChanged: number;
}

/** Renames a saved Metafield's key through the API, which moves every Object's value with it. */
export function RenameKeyDialog({
  typeSlug,
  mf,
  onDone,
  onCancel,
}: {
  typeSlug: string;
  mf: Metafield;
  onDone: (renamed: KeyRenamed) => void;
  onCancel: () => void;
}) {
  const bucket = useBucket();
  const [key, setKey] = useState(mf.key);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await api<{ object_type: ObjectType; objects_changed: number }>(
        'POST',
        v3(bucket.slug, `object-types/${typeSlug}/metafields/${encodeURIComponent(mf.key)}/rename`),
        { body: { key } },
      );
      onDone({ type: res.object_type, key, objectsChanged: res.objects_changed });
    } catch (err) {
      // The API names the refusal: the key taken, invalid, or unchanged.
      setError(messageOf(err));
      setBusy(false);
    }
  };
  return (
    <Modal title={`Rename key of ${mf.title}`} describedBy="rename-key-note" onDismiss={onCancel} class="confirm">
      <form onSubmit={(e) => void submit(e)}>
        <p id="rename-key-note">
          Every Object of this type keeps its value: drafts and published versions move it from <code>{mf.key}</code> to
          the new key. Revisions keep the key they were saved with. Code reading <code>metadata.{mf.key}</code> has to
          change too.
        </p>
        <TextInput label="New key" value={key} required pattern="[A-Za-z0-9_\-]+" onValue={setKey} />
        <ErrorText message={error} />
        <div class="form-actions">
          <button type="submit" class="primary" disabled={busy || key === mf.key}>
            Rename key
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** A Metafield a save drops, and how many Objects have a value for it. */
export interface Dropped {
  title: string;
  key: string;
  objects: number;
}

function countText(n: number): string {
  return `${String(n)} Object${n === 1 ? '' : 's'}`;
}

/** Asks before a save that drops Metafields with values: the values stop showing in the editor and the API. */
export function ConfirmRemovalDialog({
  dropped,
  onConfirm,
  onCancel,
}: {
  dropped: Dropped[];
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const one = dropped.length === 1 ? dropped[0] : undefined;
  return (
    <Modal
      title={one ? `Remove Metafield ${one.title}?` : 'Remove Metafields?'}
      role="alertdialog"
      describedBy="confirm-removal-text"
      onDismiss={onCancel}
      class="confirm"
    >
      <div id="confirm-removal-text">
        {one ? (
          <p>
            {countText(one.objects)} ha{one.objects === 1 ? 's' : 've'} a value for <strong>{one.title}</strong> (
            <code>{one.key}</code>).
          </p>
        ) : (
          <ul>
            {dropped.map((d) => (
              <li key={d.key}>
                <strong>{d.title}</strong> (<code>{d.key}</code>): {countText(d.objects)} with a value
              </li>
            ))}
          </ul>
        )}
        <p>
          After saving, those values no longer show in the editor or the API. To change only the key, cancel and use
          Rename key.
        </p>
      </div>
      <div class="form-actions">
        <button type="button" class="danger" onClick={onConfirm}>
          Remove and save
        </button>
        <button type="button" onClick={onCancel} autofocus>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

/** The saved top-level Metafields `next` drops, with their usage, those without values left out. */
export async function droppedWithValues(
  bucketSlug: string,
  saved: ObjectType,
  next: readonly Metafield[],
): Promise<Dropped[]> {
  const kept = new Set(next.map((m) => m.key));
  const gone = saved.metafields.filter((m) => !kept.has(m.key));
  const counted = await Promise.all(
    gone.map(async (m) => {
      const usage = await api<{ objects: number }>(
        'GET',
        v3(bucketSlug, `object-types/${saved.slug}/metafields/${encodeURIComponent(m.key)}/usage`),
      );
      return { title: m.title, key: m.key, objects: usage.objects };
    }),
  );
  return counted.filter((d) => d.objects > 0);
}
