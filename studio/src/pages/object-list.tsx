import { useEffect, useState } from 'preact/hooks';
import { api, apiList, messageOf, v3 } from '../api';
import { can, useBucket } from '../bucket';
import { may } from '../permissions';
import { cellText } from '../list-cells';
import {
  ariaSortOf,
  columnsOf,
  filterableOf,
  filterOf,
  nextSort,
  readOf,
  searchOf,
  sortsOf,
  viewFromSearch,
  type Column,
  type ListView,
  type Status,
} from '../list-view';
import { href, Link, navigate, setSearch, useLocation } from '../router';
import { statusKind, statusLabel } from '../status-label';
import type { ContentObject, ObjectType } from '../types';
import { ErrorText, Loading, Notice, PageHeader, TextInput } from '../ui';
import { ColumnsControl, MetafieldFilters } from './list-controls';
import { useObjectFeed } from '../live-feed';

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

/** One type's Objects: columns, title search, status and Metafield filters, sort, keyset paging, batch actions; the view lives in the address. */
export function ObjectList({ type }: { type: ObjectType }) {
  const bucket = useBucket();
  const { search: params } = useLocation();
  const view = viewFromSearch(params, type);
  const address = searchOf(view).toString();
  const [page, setPage] = useState<{ objects: ContentObject[]; total: number } | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  // Anyone's change to an Object of this type reads the page again (docs/realtime.md).
  useObjectFeed(bucket, type.slug, () => {
    setReload((n) => n + 1);
  });
  const [filtersOpen, setFiltersOpen] = useState(() => Object.keys(view.filters).length > 0);

  /** A new view: back to the first page (cursors belong to the old one), nothing selected. */
  const change = (patch: Partial<ListView>, replace = false) => {
    setSelected(new Set());
    setSearch(searchOf({ ...view, after: [], ...patch }), replace);
  };

  useEffect(() => {
    const { props, depth } = readOf(view, type);
    setError(null);
    apiList<{ objects: ContentObject[]; total: number }>(
      v3(bucket.slug, 'objects'),
      {
        query: JSON.stringify(filterOf(view, type)),
        status: view.status,
        sort: view.sort,
        limit: PAGE,
        after: view.after[view.after.length - 1],
        props,
        depth: depth || undefined,
        useCache: 'false',
      },
      { objects: [], total: 0 },
    ).then(setPage, (err: unknown) => {
      setError(messageOf(err));
    });
  }, [bucket.slug, type.slug, address, reload]);

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

  const objects = page?.objects ?? [];
  const columns = columnsOf(type).filter((c) => view.columns.includes(c.id));
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
          value={view.search}
          onValue={(text) => {
            change({ search: text }, true);
          }}
        />
        <label>
          Status
          <select
            value={view.status}
            onChange={(e) => {
              change({ status: e.currentTarget.value as Status });
            }}
          >
            <option value="any">Any</option>
            <option value="published">Published</option>
            <option value="draft">Draft (or draft pending)</option>
          </select>
        </label>
        <SortSelect
          type={type}
          sort={view.sort}
          onSort={(sort) => {
            change({ sort });
          }}
        />
        {filterableOf(type).length > 0 ? (
          <button
            type="button"
            aria-expanded={filtersOpen}
            aria-controls="metafield-filters"
            onClick={() => {
              setFiltersOpen(!filtersOpen);
            }}
          >
            Filters{Object.keys(view.filters).length > 0 ? ` (${Object.keys(view.filters).length})` : ''}
          </button>
        ) : null}
        <ColumnsControl
          type={type}
          columns={view.columns}
          onColumns={(next) => {
            change({ columns: next, after: view.after });
          }}
        />
      </div>
      {filtersOpen ? (
        <div id="metafield-filters" role="group" aria-label="Filters by field">
          <MetafieldFilters
            type={type}
            view={view}
            onFilter={(name, value) => {
              // An emptied filter leaves the address (searchOf skips empty values).
              change({ filters: { ...view.filters, [name]: value } });
            }}
          />
        </div>
      ) : null}
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
        <div class="table-scroll">
          <table class="list">
            <thead>
              <tr>
                <th scope="col">
                  <span class="sr-only">Select</span>
                </th>
                {columns.map((c) => (
                  <th
                    scope="col"
                    key={c.id}
                    aria-sort={ariaSortOf(view.sort, c)}
                    class={c.id === 'modified_at' ? 'wide-only' : undefined}
                  >
                    {c.sort ? (
                      <button
                        type="button"
                        class="sort"
                        onClick={() => {
                          change({ sort: nextSort(view.sort, c) });
                        }}
                      >
                        {c.title}
                        <span aria-hidden="true">{sortArrow(ariaSortOf(view.sort, c))}</span>
                      </button>
                    ) : (
                      c.title
                    )}
                  </th>
                ))}
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
                  {columns.map((c) => (
                    <td key={c.id} class={c.id === 'modified_at' ? 'wide-only' : undefined}>
                      <Cell column={c} object={o} typeSlug={type.slug} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <div class="pager">
        <span class="muted">{page ? `${page.total} in all` : ''}</span>
        <button
          type="button"
          disabled={view.after.length === 0}
          onClick={() => {
            change({ after: view.after.slice(0, -1) });
          }}
        >
          Previous page
        </button>
        <button
          type="button"
          disabled={objects.length < PAGE}
          onClick={() => {
            const last = objects[objects.length - 1];
            if (last) change({ after: [...view.after, last.id] });
          }}
        >
          Next page
        </button>
      </div>
    </>
  );
}

function sortArrow(sort: 'ascending' | 'descending' | undefined): string {
  return sort === 'ascending' ? ' ▲' : sort === 'descending' ? ' ▼' : '';
}

/** The sort values the API accepts for the type, named as an editor reads them. */
function SortSelect({ type, sort, onSort }: { type: ObjectType; sort: string; onSort: (sort: string) => void }) {
  const named: Record<string, string> = {
    '-modified_at': 'Last modified',
    modified_at: 'First modified',
    '-created_at': 'Newest',
    created_at: 'Oldest',
    order: 'Order',
    '-order': 'Order (reversed)',
  };
  const titleOf = (value: string) => {
    const key = value.replace(/^-?metadata\./, '');
    const mf = type.metafields.find((m) => m.key === key);
    return `${mf?.title ?? key} (${value.startsWith('-') ? 'descending' : 'ascending'})`;
  };
  return (
    <label>
      Sort by
      <select
        value={sort}
        onChange={(e) => {
          onSort(e.currentTarget.value);
        }}
      >
        {sortsOf(type).map((value) => (
          <option key={value} value={value}>
            {named[value] ?? titleOf(value)}
          </option>
        ))}
      </select>
    </label>
  );
}

function Cell({ column, object: o, typeSlug }: { column: Column; object: ContentObject; typeSlug: string }) {
  const bucket = useBucket();
  switch (column.id) {
    case 'title':
      return (
        <>
          <Link to={href('b', bucket.slug, 'objects', typeSlug, o.id)}>{o.title}</Link>
          {o.locale ? <span class="badge">{o.locale}</span> : null}
        </>
      );
    case 'status': {
      const kind = statusKind(o) ?? o.status;
      return <span class={`status ${kind}`}>{statusLabel(o)}</span>;
    }
    case 'modified_at':
      return <>{o.modified_at ? new Date(o.modified_at).toLocaleString() : ''}</>;
    default:
      return <>{column.mf ? cellText(column.mf, o.metadata?.[column.mf.key]) : ''}</>;
  }
}
