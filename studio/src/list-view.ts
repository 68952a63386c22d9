import type { Kind, Metafield, ObjectType } from './types';
import { optionKey, optionsOf } from './values';

// One type's Object list as the editor set it up (columns, filters, sort, search, status, page),
// read from and written to the address, so reload and back/forward bring it back; and the API
// query it asks. Pure: no requests, no DOM.

export type Status = 'any' | 'published' | 'draft';

export interface ListView {
  search: string;
  status: Status;
  sort: string;
  /** Column ids: `title`, `status`, `modified_at`, `metadata.<key>`. */
  columns: string[];
  /** Filter values by parameter name below `f.`: `<key>`, `<key>.from`/`.to` (date), `<key>.min`/`.max` (number). */
  filters: Record<string, string>;
  /** Keyset cursors: the last id of each page before this one. */
  after: string[];
}

export const DEFAULT_COLUMNS = ['title', 'status', 'modified_at'];
export const DEFAULT_SORT = '-modified_at';

/** Kinds whose values a table cell can show in a line. */
const COLUMN_KINDS: ReadonlySet<Kind> = new Set([
  'text',
  'textarea',
  'number',
  'date',
  'select-dropdown',
  'radio-buttons',
  'check-boxes',
  'switch',
  'object',
  'objects',
]);

/** Kinds the list filters by, and how (see filterOf). */
const FILTER_KINDS: ReadonlySet<Kind> = new Set([
  'select-dropdown',
  'radio-buttons',
  'switch',
  'date',
  'number',
  'object',
  'objects',
]);

export interface Column {
  id: string;
  title: string;
  /** The Metafield shown, for `metadata.<key>` columns. */
  mf?: Metafield;
  /** The sort value of this column (ascending), when the API sorts by it. */
  sort?: string;
}

/** Every column the type's list can show, in order. */
export function columnsOf(type: ObjectType): Column[] {
  const own = type.metafields
    .filter((m) => COLUMN_KINDS.has(m.type))
    .map((m): Column => {
      const id = `metadata.${m.key}`;
      // The API sorts by a Metafield only when the type marks it sortable.
      return m.sortable ? { id, title: m.title, mf: m, sort: id } : { id, title: m.title, mf: m };
    });
  return [
    { id: 'title', title: 'Title' },
    { id: 'status', title: 'Status' },
    { id: 'modified_at', title: 'Modified', sort: 'modified_at' },
    ...own,
  ];
}

export function filterableOf(type: ObjectType): Metafield[] {
  return type.metafields.filter((m) => FILTER_KINDS.has(m.type));
}

/** The sort values the API accepts for this type (spec: timestamps, order, sortable Metafields). */
export function sortsOf(type: ObjectType): string[] {
  const asc = [
    'modified_at',
    'created_at',
    'order',
    ...type.metafields.filter((m) => m.sortable).map((m) => `metadata.${m.key}`),
  ];
  return asc.flatMap((s) => [s, `-${s}`]);
}

const STATUSES: readonly Status[] = ['any', 'published', 'draft'];

/** The view the address holds; anything unknown to this type falls back to the default. */
export function viewFromSearch(params: URLSearchParams, type: ObjectType): ListView {
  const known = new Set(columnsOf(type).map((c) => c.id));
  const cols = params.get('cols');
  const columns = cols === null ? DEFAULT_COLUMNS : cols.split(',').filter((c) => known.has(c));
  const status = params.get('status') ?? 'any';
  const sort = params.get('sort') ?? DEFAULT_SORT;
  const filters: Record<string, string> = {};
  for (const name of filterNames(type)) {
    const value = params.get(`f.${name}`);
    if (value) filters[name] = value;
  }
  return {
    search: params.get('q') ?? '',
    status: STATUSES.includes(status as Status) ? (status as Status) : 'any',
    sort: sortsOf(type).includes(sort) ? sort : DEFAULT_SORT,
    columns: columns.includes('title') ? columns : ['title', ...columns],
    filters,
    after: (params.get('after') ?? '').split(',').filter(Boolean),
  };
}

/** The address's query for `view`: defaults left out, so a plain list has a plain address. */
export function searchOf(view: ListView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.search) params.set('q', view.search);
  if (view.status !== 'any') params.set('status', view.status);
  if (view.sort !== DEFAULT_SORT) params.set('sort', view.sort);
  if (view.columns.join(',') !== DEFAULT_COLUMNS.join(',')) params.set('cols', view.columns.join(','));
  for (const [name, value] of Object.entries(view.filters)) if (value) params.set(`f.${name}`, value);
  if (view.after.length > 0) params.set('after', view.after.join(','));
  return params;
}

/** The filter parameter names of a Metafield (below `f.`). */
export function filterNamesOf(mf: Metafield): string[] {
  if (mf.type === 'date') return [`${mf.key}.from`, `${mf.key}.to`];
  if (mf.type === 'number') return [`${mf.key}.min`, `${mf.key}.max`];
  return [mf.key];
}

function filterNames(type: ObjectType): string[] {
  return filterableOf(type).flatMap(filterNamesOf);
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A range condition from its two ends, each left out when empty; null when both are. */
function range(from: unknown, to: unknown): Record<string, unknown> | null {
  const cond: Record<string, unknown> = {};
  if (from !== undefined) cond.$gte = from;
  if (to !== undefined) cond.$lte = to;
  return Object.keys(cond).length > 0 ? cond : null;
}

function numberOr(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** One Metafield's condition in the API's query language, or null when it filters nothing. */
function conditionOf(mf: Metafield, filters: Record<string, string>): unknown {
  const value = filters[mf.key];
  switch (mf.type) {
    case 'select-dropdown':
      // Matched by option key (docs/api.md); an option not (any longer) on the type filters nothing.
      return value && optionsOf(mf).some((o) => optionKey(o) === value) ? value : null;
    case 'radio-buttons':
      return value && optionsOf(mf).some((o) => o.value === value) ? value : null;
    case 'switch':
      // A switch never set is stored false, so "no" is false and finds those too.
      return value === 'yes' ? true : value === 'no' ? false : null;
    case 'date':
      return range(filters[`${mf.key}.from`] || undefined, filters[`${mf.key}.to`] || undefined);
    case 'number':
      return range(numberOr(filters[`${mf.key}.min`]), numberOr(filters[`${mf.key}.max`]));
    case 'object':
    case 'objects':
      // A relationship matches the related Object's id; a multiple one, when it holds it.
      return value || null;
    default:
      return null;
  }
}

/** The API `query` of the view: its type, the title search, and every Metafield filter set. */
export function filterOf(view: ListView, type: ObjectType): Record<string, unknown> {
  const filter: Record<string, unknown> = { type: type.slug };
  const text = view.search.trim();
  // Search matches a literal piece of the title, case-insensitively; escaped, so always linear.
  if (text) filter.title = { $regex: escapeRegex(text), $options: 'i' };
  for (const mf of filterableOf(type)) {
    const cond = conditionOf(mf, view.filters);
    if (cond !== null) filter[`metadata.${mf.key}`] = cond;
  }
  return filter;
}

/** The read's `props` for the chosen columns (and what every row needs), and whether it needs related titles. */
export function readOf(view: ListView, type: ObjectType): { props: string; depth: number } {
  const shown = columnsOf(type).filter((c) => c.mf && view.columns.includes(c.id));
  const props = [
    'id',
    'title',
    'slug',
    'status',
    'modified_at',
    'published_modified_at',
    'locale',
    ...shown.map((c) => c.id),
  ];
  const related = shown.some((c) => c.mf?.type === 'object' || c.mf?.type === 'objects');
  return { props: props.join(','), depth: related ? 1 : 0 };
}

/** The sort after a click on a column's header: the other direction when it sorts now, else its natural one. */
export function nextSort(current: string, column: Column): string {
  const sort = column.sort;
  if (!sort) return current;
  if (current === `-${sort}`) return sort;
  if (current === sort) return `-${sort}`;
  // Newest first is what an editor wants of a date of change; Metafields read best A→Z.
  return sort === 'modified_at' ? `-${sort}` : sort;
}

/** A column's aria-sort under `current`, or undefined when the list is not sorted by it. */
export function ariaSortOf(current: string, column: Column): 'ascending' | 'descending' | undefined {
  if (!column.sort) return undefined;
  if (current === column.sort) return 'ascending';
  if (current === `-${column.sort}`) return 'descending';
  return undefined;
}
