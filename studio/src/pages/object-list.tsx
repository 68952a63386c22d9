import { useEffect, useState } from 'preact/hooks';
import { api, apiList, messageOf, v3 } from '../api';
import { can, useBucket } from '../bucket';
import { may } from '../permissions';
import { href, Link, navigate } from '../router';
import type { ContentObject, ObjectType } from '../types';
import { ErrorText, Loading, Notice, PageHeader, TextInput } from '../ui';

const PAGE = 25;

export function ObjectsHome() {
  const bucket = useBucket();
  return (
    <>
      <PageHeader title="Objects" />
      {bucket.types.length === 0 ? <p>No Object types yet: create one under Object types.</p> : null}
      <ul class="cards">
        {bucket.types.map((t) => (
          <li key={t.slug}>
            <Link to={href('b', bucket.slug, 'objects', t.slug)}>
              {t.emoji ? `${t.emoji} ` : ''}
              {t.title}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}

type Status = 'any' | 'published' | 'draft';

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One type's Objects: title search, status filter, sort, keyset paging, batch actions. */
export function ObjectList({ type }: { type: ObjectType }) {
  const bucket = useBucket();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<Status>('any');
  const [sort, setSort] = useState('-modified_at');
  const [cursors, setCursors] = useState<string[]>([]);
  const [page, setPage] = useState<{ objects: ContentObject[]; total: number } | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  const after = cursors[cursors.length - 1];
  useEffect(() => {
    const filter: Record<string, unknown> = { type: type.slug };
    // Search matches a literal piece of the title, case-insensitively; escaped, so always linear.
    if (search.trim()) filter.title = { $regex: escapeRegex(search.trim()), $options: 'i' };
    setError(null);
    apiList<{ objects: ContentObject[]; total: number }>(
      v3(bucket.slug, 'objects'),
      {
        query: JSON.stringify(filter),
        status,
        sort,
        limit: PAGE,
        after,
        props: 'id,title,slug,status,modified_at,published_at,locale',
        useCache: 'false',
      },
      { objects: [], total: 0 },
    ).then(setPage, (err: unknown) => {
      setError(messageOf(err));
    });
  }, [bucket.slug, type.slug, search, status, sort, after, reload]);

  const resetPaging = () => {
    setCursors([]);
    setSelected(new Set());
  };

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  const runBatch = async (action: 'publish' | 'unpublish' | 'delete') => {
    if (action === 'delete' && !confirm(`Delete ${selected.size} Objects?`)) return;
    const operations = [...selected].map((object_id) => {
      if (action === 'delete') return { method: 'delete', object_id };
      // The API withdraws a live version through unpublish_at, which must lie ahead: a moment from now.
      if (action === 'unpublish') return { method: 'edit', object_id, object: { unpublish_at: Date.now() + 5000 } };
      return { method: 'edit', object_id, object: { status: 'published' } };
    });
    try {
      const { operations: results } = await api<{ operations: { status: number; message?: string }[] }>(
        'POST',
        v3(bucket.slug, 'objects/batch'),
        { body: { operations } },
      );
      const failed = results.filter((r) => r.status >= 400);
      setError(failed.length ? failed.map((f) => f.message).join('; ') : null);
      const later = action === 'unpublish' ? ' The live versions are withdrawn within seconds.' : '';
      setNotice(`${results.length - failed.length} of ${results.length} done.${later}`);
      setSelected(new Set());
      setReload((n) => n + 1);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const sortable = type.metafields.filter((m) => m.sortable);
  const objects = page?.objects ?? [];
  return (
    <>
      <PageHeader title={type.title}>
        <button
          type="button"
          class="primary"
          onClick={() => {
            navigate(href('b', bucket.slug, 'objects', type.slug, 'new'));
          }}
        >
          New Object
        </button>
      </PageHeader>
      <div class="filters">
        <TextInput
          type="search"
          label="Search titles"
          value={search}
          onValue={(text) => {
            setSearch(text);
            resetPaging();
          }}
        />
        <label>
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.currentTarget.value as Status);
              resetPaging();
            }}
          >
            <option value="any">Any</option>
            <option value="published">Published</option>
            <option value="draft">Draft</option>
          </select>
        </label>
        <label>
          Sort by
          <select
            value={sort}
            onChange={(e) => {
              setSort(e.currentTarget.value);
              resetPaging();
            }}
          >
            <option value="-modified_at">Last modified</option>
            <option value="modified_at">First modified</option>
            <option value="-created_at">Newest</option>
            <option value="created_at">Oldest</option>
            <option value="-order">Order</option>
            {sortable.flatMap((m) => [
              <option key={m.key} value={`metadata.${m.key}`}>
                {m.title} (ascending)
              </option>,
              <option key={`-${m.key}`} value={`-metadata.${m.key}`}>
                {m.title} (descending)
              </option>,
            ])}
          </select>
        </label>
      </div>
      {selected.size > 0 ? (
        <div class="batch" role="group" aria-label="Selected Objects">
          <span>{selected.size} selected</span>
          {can.publish(bucket) ? (
            <>
              <button type="button" onClick={() => void runBatch('publish')}>
                Publish selected
              </button>
              <button type="button" onClick={() => void runBatch('unpublish')}>
                Unpublish selected
              </button>
            </>
          ) : null}
          {may.batch(bucket) ? (
            <button type="button" class="danger" onClick={() => void runBatch('delete')}>
              Delete selected
            </button>
          ) : null}
        </div>
      ) : null}
      <ErrorText message={error} />
      <Notice message={notice} />
      {page === null && !error ? <Loading /> : null}
      {page && objects.length === 0 ? <p>No Objects match.</p> : null}
      {objects.length > 0 ? (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">
                <span class="sr-only">Select</span>
              </th>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col" class="wide-only">
                Modified
              </th>
            </tr>
          </thead>
          <tbody>
            {objects.map((o) => (
              <tr key={o.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select ${o.title}`}
                    checked={selected.has(o.id)}
                    onChange={() => {
                      toggle(o.id);
                    }}
                  />
                </td>
                <td>
                  <Link to={href('b', bucket.slug, 'objects', type.slug, o.id)}>{o.title}</Link>
                  {o.locale ? <span class="badge">{o.locale}</span> : null}
                </td>
                <td>
                  <span class={`status ${o.status}`}>{o.status}</span>
                </td>
                <td class="wide-only">{o.modified_at ? new Date(o.modified_at).toLocaleString() : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div class="pager">
        <span class="muted">{page ? `${page.total} in all` : ''}</span>
        <button
          type="button"
          disabled={cursors.length === 0}
          onClick={() => {
            setCursors(cursors.slice(0, -1));
          }}
        >
          Previous page
        </button>
        <button
          type="button"
          disabled={objects.length < PAGE}
          onClick={() => {
            const last = objects[objects.length - 1];
            if (last) setCursors([...cursors, last.id]);
          }}
        >
          Next page
        </button>
      </div>
    </>
  );
}
