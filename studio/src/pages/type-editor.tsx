import { useEffect, useState } from 'preact/hooks';
import { api, messageOf, v3 } from '../api';
import { useBucket } from '../bucket';
import { href, Link, navigate } from '../router';
import type { ObjectType } from '../types';
import { ErrorText, Loading, Notice, TextInput } from '../ui';
import { MetafieldList } from './metafield-builder';
import { ConfirmRemovalDialog, droppedWithValues, RenameKeyDialog, type Dropped } from './metafield-key-dialogs';

const EMPTY: ObjectType = { title: '', slug: '', metafields: [], options: { slug_field: true, content_editor: true } };

function flag(v: boolean | number | undefined): boolean {
  return v !== 0 && v !== false;
}

/** Create or edit an Object type: its settings and its Metafields. */
export function TypeEditor({ slug }: { slug: string | null }) {
  const bucket = useBucket();
  const [type, setType] = useState<ObjectType | null>(slug === null ? EMPTY : null);
  const [locales, setLocales] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The type as last loaded or saved: what a save drops is measured against it.
  const [saved, setSaved] = useState<ObjectType | null>(null);
  const [renaming, setRenaming] = useState<number | null>(null);
  const [dropping, setDropping] = useState<Dropped[] | null>(null);

  useEffect(() => {
    if (slug === null) return;
    api<{ object_type: ObjectType }>('GET', v3(bucket.slug, `object-types/${slug}`), {
      query: { useCache: 'false' },
    }).then(
      ({ object_type }) => {
        setType(object_type);
        setSaved(object_type);
        setLocales((object_type.locales ?? []).join(', '));
      },
      (err: unknown) => {
        setError(messageOf(err));
      },
    );
  }, [slug]);

  if (!type) return error ? <ErrorText message={error} /> : <Loading />;
  const set = (patch: Partial<ObjectType>) => {
    setType({ ...type, ...patch });
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setNotice(null);
    if (saved) {
      setBusy(true);
      try {
        const dropped = await droppedWithValues(bucket.slug, saved, type.metafields);
        if (dropped.length > 0) {
          setDropping(dropped);
          return;
        }
      } catch (err) {
        setError(messageOf(err));
        return;
      } finally {
        setBusy(false);
      }
    }
    await write();
  };

  const write = async () => {
    setBusy(true);
    const list = locales
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean);
    const body: Record<string, unknown> = {
      title: type.title,
      metafields: type.metafields,
      singleton: type.singleton === true,
      options: { slug_field: flag(type.options?.slug_field), content_editor: flag(type.options?.content_editor) },
      localization: type.localization === true,
    };
    if (type.slug) body.slug = type.slug;
    if (type.singular) body.singular = type.singular;
    if (type.emoji !== undefined) body.emoji = type.emoji;
    if (type.preview_link) body.preview_link = type.preview_link;
    if (type.localization || list.length) body.locales = list;
    try {
      const { object_type } = await api<{ object_type: ObjectType }>(
        slug === null ? 'POST' : 'PATCH',
        v3(bucket.slug, slug === null ? 'object-types' : `object-types/${slug}`),
        { body },
      );
      await bucket.reloadTypes();
      if (slug !== object_type.slug) navigate(href('b', bucket.slug, 'types', object_type.slug), true);
      else {
        setType(object_type);
        setSaved(object_type);
        setNotice('Object type saved.');
      }
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (slug === null || !confirm(`Delete the Object type ${type.title} and its Objects?`)) return;
    try {
      await api('DELETE', v3(bucket.slug, `object-types/${slug}`));
      await bucket.reloadTypes();
      navigate(href('b', bucket.slug, 'types'), true);
    } catch (err) {
      // The API says why it refuses (type_in_use names the types that still point here).
      setError(messageOf(err));
    }
  };

  return (
    <form class="type-editor" onSubmit={(e) => void save(e)}>
      <nav class="crumbs" aria-label="Breadcrumb">
        <Link to={href('b', bucket.slug, 'types')}>Object types</Link>
      </nav>
      <h1>{slug === null ? 'New Object type' : type.title}</h1>
      <div class="grid">
        <TextInput
          label="Type title"
          value={type.title}
          required
          onValue={(v) => {
            set({ title: v });
          }}
        />
        <TextInput
          label="Type slug"
          value={type.slug}
          pattern="[a-z0-9\-]+"
          placeholder="made from the title when empty"
          onValue={(v) => {
            set({ slug: v });
          }}
        />
        <TextInput
          label="Singular title"
          value={type.singular ?? ''}
          onValue={(v) => {
            set({ singular: v });
          }}
        />
        <TextInput
          label="Emoji"
          value={type.emoji ?? ''}
          onValue={(v) => {
            set({ emoji: v });
          }}
        />
        <TextInput
          label="Preview link"
          value={type.preview_link ?? ''}
          placeholder="https://site/[object_slug]"
          onValue={(v) => {
            set({ preview_link: v });
          }}
        />
        <TextInput
          label="Locales (comma-separated)"
          value={locales}
          onValue={(v) => {
            setLocales(v);
          }}
        />
      </div>
      <div class="checks">
        <label class="choice">
          <input
            type="checkbox"
            checked={type.singleton === true}
            onChange={(e) => {
              set({ singleton: e.currentTarget.checked });
            }}
          />
          Singleton
        </label>
        <label class="choice">
          <input
            type="checkbox"
            checked={type.localization === true}
            onChange={(e) => {
              set({ localization: e.currentTarget.checked });
            }}
          />
          Localization
        </label>
        <label class="choice">
          <input
            type="checkbox"
            checked={flag(type.options?.slug_field)}
            onChange={(e) => {
              set({ options: { ...type.options, slug_field: e.currentTarget.checked } });
            }}
          />
          Slug field
        </label>
        <label class="choice">
          <input
            type="checkbox"
            checked={flag(type.options?.content_editor)}
            onChange={(e) => {
              set({ options: { ...type.options, content_editor: e.currentTarget.checked } });
            }}
          />
          Content editor
        </label>
      </div>
      <h2>Metafields</h2>
      <MetafieldList
        label="Metafields"
        list={type.metafields}
        onChange={(metafields) => {
          set({ metafields });
        }}
        onRenameKey={slug === null ? undefined : setRenaming}
      />
      {slug !== null && renaming !== null && type.metafields[renaming] ? (
        <RenameKeyDialog
          typeSlug={slug}
          mf={type.metafields[renaming]}
          onCancel={() => {
            setRenaming(null);
          }}
          onDone={({ type: renamed, key, objectsChanged }) => {
            const at = renaming;
            // Only the renamed key changes here: other edits not saved yet stay in the form.
            set({ metafields: type.metafields.map((m, i) => (i === at ? { ...m, key } : m)) });
            setSaved(renamed);
            setRenaming(null);
            // The Object editor reads the Bucket's types: it must find the values under the new key.
            void bucket.reloadTypes();
            const changed = `${String(objectsChanged)} Object${objectsChanged === 1 ? '' : 's'}`;
            setNotice(`Key renamed to ${key}; ${changed} changed.`);
          }}
        />
      ) : null}
      {dropping ? (
        <ConfirmRemovalDialog
          dropped={dropping}
          onCancel={() => {
            setDropping(null);
          }}
          onConfirm={() => {
            setDropping(null);
            void write();
          }}
        />
      ) : null}
      <ErrorText message={error} />
      <Notice message={notice} />
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          Save Object type
        </button>
        {slug !== null ? (
          <button type="button" class="danger" onClick={() => void remove()}>
            Delete Object type
          </button>
        ) : null}
      </div>
    </form>
  );
}
