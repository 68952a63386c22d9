import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, messageOf, v3 } from '../api';
import { can, useBucket } from '../bucket';
import { Fields } from '../fields/field';
import { HtmlField } from '../fields/rich';
import { href, Link, navigate } from '../router';
import type { ContentObject, ObjectType } from '../types';
import { StatusBadge } from '../status-badge';
import { ErrorText, Loading, Notice } from '../ui';
import { editValues, JsonProblem, problemsByKey, writeValues, type Values } from '../values';
import { LocaleSwitcher, takePrefill } from './locale-switcher';
import { Revisions } from './revisions';

interface Draft {
  title: string;
  slug: string;
  content: string;
  locale: string;
  metadata: Values;
  publishAt: string;
}

function draftOf(type: ObjectType, o: ContentObject | null): Draft {
  return {
    title: o?.title ?? '',
    slug: o?.slug ?? '',
    content: o?.content ?? '',
    locale: o?.locale ?? type.priority_locale ?? type.locales?.[0] ?? '',
    metadata: editValues(type.metafields, o?.metadata ?? {}),
    publishAt: '',
  };
}

/** What a create says once the editor reopens on the new Object's address. */
let flash: string | null = null;

const shown = (flag: boolean | number | undefined) => flag !== 0 && flag !== false;

/** The form for one Object, generated from its type's Metafields. */
export function ObjectEditor({ type, id }: { type: ObjectType; id: string | null }) {
  const bucket = useBucket();
  const [object, setObject] = useState<ContentObject | null>(null);
  const [draft, setDraft] = useState<Draft | null>(() => {
    if (id !== null) return null;
    const prefill = takePrefill();
    return { ...draftOf(type, null), ...(prefill ?? {}) };
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(() => {
    const message = flash;
    flash = null;
    return message;
  });
  const [busy, setBusy] = useState(false);
  const [version, setVersion] = useState(0);

  const load = async () => {
    if (id === null) return;
    try {
      const { object: o } = await api<{ object: ContentObject }>('GET', v3(bucket.slug, `objects/${id}`), {
        query: { status: 'any', useCache: 'false' },
      });
      setObject(o);
      setDraft(draftOf(type, o));
      setVersion((v) => v + 1);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => {
    void load();
  }, [id]);

  if (!draft) return error ? <ErrorText message={error} /> : <Loading />;
  const update = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
  };

  const save = async (mode: 'draft' | 'publish' | 'schedule') => {
    setBusy(true);
    setError(null);
    setErrors({});
    setNotice(null);
    try {
      const body: Record<string, unknown> = {
        title: draft.title,
        metadata: writeValues(type.metafields, draft.metadata),
        status: mode === 'publish' ? 'published' : 'draft',
      };
      if (shown(type.options?.slug_field) && draft.slug) body.slug = draft.slug;
      if (shown(type.options?.content_editor)) body.content = draft.content;
      if (type.localization && draft.locale) body.locale = draft.locale;
      if (mode === 'schedule') body.publish_at = new Date(draft.publishAt).toISOString();
      if (id === null) {
        const { object: created } = await api<{ object: ContentObject }>('POST', v3(bucket.slug, 'objects'), {
          body: { ...body, type: type.slug },
        });
        flash = mode === 'publish' ? 'Published.' : mode === 'schedule' ? 'Publish scheduled.' : 'Draft saved.';
        navigate(href('b', bucket.slug, 'objects', type.slug, created.id), true);
        return;
      }
      const { object: saved } = await api<{ object: ContentObject }>('PATCH', v3(bucket.slug, `objects/${id}`), {
        body,
      });
      setObject(saved);
      setVersion((v) => v + 1);
      setNotice(mode === 'publish' ? 'Published.' : mode === 'schedule' ? 'Publish scheduled.' : 'Draft saved.');
    } catch (err) {
      if (err instanceof JsonProblem) {
        setErrors({ [err.key.split(/[.[]/)[0] ?? err.key]: err.message });
        setError(err.message);
      } else if (err instanceof ApiError && err.status === 400) {
        const { byKey } = problemsByKey(
          err.message,
          type.metafields.map((m) => m.key),
        );
        setErrors(byKey);
        setError(err.message);
      } else setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const preview = async () => {
    if (!id || !type.preview_link) return;
    try {
      const { preview_token } = await api<{ preview_token: string }>('POST', v3(bucket.slug, 'preview-tokens'), {
        body: { object_id: id },
      });
      const link = type.preview_link
        .replace('[object_slug]', encodeURIComponent(object?.slug ?? ''))
        .replace('[object_id]', encodeURIComponent(id));
      const url = new URL(link, location.href);
      url.searchParams.set('preview_token', preview_token);
      window.open(url.toString(), '_blank', 'noopener');
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const remove = async () => {
    if (!id || !confirm(`Delete ${draft.title}?`)) return;
    try {
      await api('DELETE', v3(bucket.slug, `objects/${id}`));
      navigate(href('b', bucket.slug, 'objects', type.slug), true);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const scheduled = object?.publish_at ? new Date(object.publish_at).toLocaleString() : null;
  return (
    <div class="editor">
      <nav class="crumbs" aria-label="Breadcrumb">
        <Link to={href('b', bucket.slug, 'objects', type.slug)}>{type.title}</Link>
      </nav>
      <h1>{id === null ? `New ${type.singular ?? type.title}` : draft.title || 'Untitled'}</h1>
      {type.localization && object ? <LocaleSwitcher type={type} object={object} /> : null}
      {object ? (
        <p class="muted">
          <StatusBadge bucket={bucket.slug} object={object} />
          {scheduled ? ` · publishes ${scheduled}` : ''}
        </p>
      ) : null}
      <form
        class="object-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save('draft');
        }}
      >
        <div class={`field${errors.__title ? ' invalid' : ''}`}>
          <label for="object-title">Title</label>
          <input
            id="object-title"
            type="text"
            value={draft.title}
            required
            aria-invalid={errors.__title ? true : undefined}
            aria-describedby={errors.__title ? 'object-title-error' : undefined}
            onInput={(e) => {
              update({ title: e.currentTarget.value });
            }}
          />
          {errors.__title ? (
            <p id="object-title-error" class="error" role="alert">
              {errors.__title}
            </p>
          ) : null}
        </div>
        {shown(type.options?.slug_field) ? (
          <div class="field">
            <label for="object-slug">Slug</label>
            <input
              id="object-slug"
              type="text"
              value={draft.slug}
              placeholder="made from the title when empty"
              onInput={(e) => {
                update({ slug: e.currentTarget.value });
              }}
            />
          </div>
        ) : null}
        {type.localization ? (
          <div class="field">
            <label for="object-locale">Locale</label>
            <select
              id="object-locale"
              value={draft.locale}
              onChange={(e) => {
                update({ locale: e.currentTarget.value });
              }}
            >
              {(type.locales ?? []).map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {shown(type.options?.content_editor) ? (
          <HtmlField
            key={`content-${version}`}
            id="object-content"
            mf={{ type: 'html-textarea', title: 'Content', key: 'content' }}
            value={draft.content}
            onChange={(v) => {
              update({ content: String(v) });
            }}
          />
        ) : null}
        <Fields
          key={`fields-${version}`}
          metafields={type.metafields}
          values={draft.metadata}
          errors={errors}
          idPrefix="mf-"
          onChange={(metadata) => {
            update({ metadata });
          }}
        />
        <ErrorText message={error} />
        <Notice message={notice} />
        <div class="form-actions">
          <button type="submit" disabled={busy}>
            Save draft
          </button>
          {can.publish(bucket) ? (
            <button type="button" class="primary" disabled={busy} onClick={() => void save('publish')}>
              Publish
            </button>
          ) : null}
          {type.preview_link && id ? (
            <button type="button" onClick={() => void preview()}>
              Preview
            </button>
          ) : null}
          {id ? (
            <button type="button" class="danger" onClick={() => void remove()}>
              Delete
            </button>
          ) : null}
        </div>
        {can.publish(bucket) ? (
          <div class="schedule">
            <label for="object-publish-at">Publish at</label>
            <input
              id="object-publish-at"
              type="datetime-local"
              value={draft.publishAt}
              onInput={(e) => {
                update({ publishAt: e.currentTarget.value });
              }}
            />
            <button type="button" disabled={busy || !draft.publishAt} onClick={() => void save('schedule')}>
              Schedule
            </button>
          </div>
        ) : null}
      </form>
      {id ? (
        <Revisions
          key={`rev-${version}`}
          objectId={id}
          type={type}
          onRestored={() => {
            void load().then(() => {
              setNotice('Revision restored as a new draft.');
            });
          }}
        />
      ) : null}
    </div>
  );
}
