import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, messageOf, v3 } from '../api';
import { can, useBucket } from '../bucket';
import { bodyFields, EditConflict, type CurrentVersion } from '../editing/edit-conflict';
import { LiveChange } from '../editing/live-change';
import { useObjectFeed, type FeedObject } from '../live-feed';
import { draftOf, SAVED_NOTICE, saveBody, shown, type Draft, type SaveMode } from '../editing/save-body';
import { SaveState, useAutosave, useLeaveGuard, useSaveShortcut } from '../editing/unsaved-work';
import { may } from '../permissions';
import { Fields } from '../fields/field';
import { HtmlField } from '../fields/rich';
import { href, Link, navigate } from '../router';
import type { ContentObject, ObjectType } from '../types';
import { StatusBadge } from '../status-badge';
import { ErrorText, Loading, Notice } from '../ui';
import { JsonProblem, problemsByKey } from '../values';
import { LocaleSwitcher, takePrefill } from './locale-switcher';
import { Revisions } from './revisions';

/** What a create says once the editor reopens on the new Object's address. */
let flash: string | null = null;

/** A save another editor's save got to first: both versions, until the person chooses. */
interface Conflict {
  mine: Record<string, unknown>;
  theirs: Record<string, unknown>;
  theirObject: ContentObject;
  current: CurrentVersion;
  mode: SaveMode;
}

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
  const [conflict, setConflict] = useState<Conflict | null>(null);
  // Bumped when the form is filled from the server, so rich editors take the values afresh.
  const [version, setVersion] = useState(0);
  const [saves, setSaves] = useState(0);
  // Edits typed, and how many of them the last save carried: unsaved work is the difference.
  // Refs, so leaving and the save that just finished read them at once, not at the next render.
  const edits = useRef(0);
  const savedEdits = useRef(0);
  const dirty = () => edits.current !== savedEdits.current;
  const settle = () => {
    savedEdits.current = edits.current;
  };

  const fill = (o: ContentObject) => {
    setObject(o);
    setDraft(draftOf(type, o));
    settle();
    setVersion((v) => v + 1);
  };
  const load = async () => {
    if (id === null) return;
    try {
      const { object: o } = await api<{ object: ContentObject }>('GET', v3(bucket.slug, `objects/${id}`), {
        query: { status: 'any', useCache: 'false' },
      });
      fill(o);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  useEffect(() => {
    void load();
  }, [id]);

  // The latest feed event about this Object; it is someone else's change when it names a newer
  // version than the one here once no save of ours is in flight (ours then is the one here).
  const heard = useRef<FeedObject | null>(null);
  const [heardCount, setHeardCount] = useState(0);
  const [changed, setChanged] = useState<FeedObject | null>(null);
  useObjectFeed(bucket, type.slug, (_event, o) => {
    if (o.id !== id) return;
    heard.current = o;
    setHeardCount((n) => n + 1);
  });
  useEffect(() => {
    const o = heard.current;
    if (busy || !o || !object) return;
    const newer = o.version !== object.version && (o.modified_at ?? '') > (object.modified_at ?? '');
    setChanged(newer ? o : null);
  }, [heardCount, busy, object]);

  const leaveDialog = useLeaveGuard(dirty);
  const fields = bodyFields(type.metafields, {
    slug: shown(type.options?.slug_field),
    content: shown(type.options?.content_editor),
  });

  /** Shows both versions when a save names a version that is no longer the latest. */
  const openConflict = async (err: ApiError, mine: Record<string, unknown>, mode: SaveMode) => {
    const { object: theirObject } = await api<{ object: ContentObject }>(
      'GET',
      v3(bucket.slug, `objects/${id ?? ''}`),
      {
        query: { status: 'any', useCache: 'false' },
      },
    );
    const current = (err.body?.current as CurrentVersion | undefined) ?? {
      version: theirObject.version ?? '',
      modified_at: theirObject.modified_at ?? new Date().toISOString(),
      modified_by: null,
    };
    setConflict({ mine, theirs: saveBody(type, draftOf(type, theirObject), mode), theirObject, current, mode });
  };

  /** `over`: the version to save over (the one this editor read, or theirs after a conflict). */
  const save = async (mode: SaveMode, { auto = false, over }: { auto?: boolean; over?: string } = {}) => {
    if (!draft || busy) return;
    setBusy(true);
    setError(null);
    setErrors({});
    if (!auto) setNotice(null);
    const carried = edits.current;
    let body: Record<string, unknown> = {};
    try {
      body = saveBody(type, draft, mode);
      if (id === null) {
        const { object: created } = await api<{ object: ContentObject }>('POST', v3(bucket.slug, 'objects'), {
          body: { ...body, type: type.slug },
        });
        flash = SAVED_NOTICE[mode];
        settle();
        navigate(href('b', bucket.slug, 'objects', type.slug, created.id), true);
        return;
      }
      const base = over ?? object?.version;
      const { object: saved } = await api<{ object: ContentObject }>('PATCH', v3(bucket.slug, `objects/${id}`), {
        body,
        ...(base !== undefined && { headers: { 'If-Match': `"${base}"` } }),
      });
      setObject(saved);
      savedEdits.current = carried;
      setSaves((n) => n + 1);
      if (!auto) setNotice(SAVED_NOTICE[mode]);
    } catch (err) {
      if (err instanceof JsonProblem) {
        setErrors({ [err.key.split(/[.[]/)[0] ?? err.key]: err.message });
        setError(err.message);
      } else if (err instanceof ApiError && err.status === 412) {
        await openConflict(err, body, mode).catch((e: unknown) => {
          setError(messageOf(e));
        });
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

  useSaveShortcut(() => {
    void save('draft');
  });
  // Drafts of a saved Object save themselves; a new Object waits for its first save (and leaving asks).
  useAutosave(id !== null && draft !== null && dirty() && !busy && conflict === null, draft, () => {
    void save('draft', { auto: true });
  });

  if (!draft) return error ? <ErrorText message={error} /> : <Loading />;
  const update = (patch: Partial<Draft>) => {
    edits.current++;
    setDraft({ ...draft, ...patch });
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
      await api('DELETE', v3(bucket.slug, `objects/${id}`), {
        ...(object?.version !== undefined && { headers: { 'If-Match': `"${object.version}"` } }),
      });
      settle();
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
      <SaveState saving={busy} dirty={dirty()} saved={id !== null} />
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
        {changed && <LiveChange change={changed} onReload={() => void load()} />}
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
          {id && object && may.deleteObject(bucket, object) ? (
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
          key={`rev-${version}-${saves}`}
          objectId={id}
          type={type}
          onRestored={() => {
            settle();
            void load().then(() => {
              setNotice('Revision restored as a new draft.');
            });
          }}
        />
      ) : null}
      {conflict ? (
        <EditConflict
          fields={fields}
          mine={conflict.mine}
          theirs={conflict.theirs}
          current={conflict.current}
          onReload={() => {
            setConflict(null);
            fill(conflict.theirObject);
            setNotice('Their version is loaded; your changes were discarded.');
          }}
          onOverwrite={() => {
            setConflict(null);
            void save(conflict.mode, { over: conflict.current.version });
          }}
          onDismiss={() => {
            setConflict(null);
          }}
        />
      ) : null}
      {leaveDialog}
    </div>
  );
}
