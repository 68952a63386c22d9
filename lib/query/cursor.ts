import { ValidationErrors } from '../errors/http-errors.js';
import type { SortDirection } from './sort.js';

/**
 * BSON types in MongoDB's sort order, lowest first, as `$type` aliases. `$gt`/`$lt` only compare
 * values of the same bracket, so a keyset filter must name the brackets that sort after the last
 * value explicitly; otherwise a field holding numbers on some documents and strings on others
 * would lose pages. Arrays are left out: sort compares an array by its smallest (ascending) or
 * largest (descending) element, and sort fields here are scalar (dates, `order`, scalar
 * Metafields), so array values get no exact keyset treatment.
 */
const TYPE_ORDER: readonly (readonly string[])[] = [
  ['minKey'],
  ['null'],
  ['number'],
  // The deprecated symbol type shares this bracket; nothing here stores it, and naming its
  // alias would fail on engines that no longer know it.
  ['string'],
  ['object'],
  ['binData'],
  ['objectId'],
  ['bool'],
  ['date'],
  ['timestamp'],
  ['regex'],
  ['maxKey'],
];
const NULL_RANK = 1;

// Maps rather than plain objects: `_bsontype` comes from stored data, and a lookup must not
// reach Object.prototype members such as `constructor`.
const BSON_CLASS_RANKS: ReadonlyMap<string, number> = new Map([
  ['MinKey', 0],
  ['Double', 2],
  ['Int32', 2],
  ['Long', 2],
  ['Decimal128', 2],
  ['BSONSymbol', 3],
  ['Binary', 5],
  ['ObjectId', 6],
  ['Timestamp', 9],
  ['BSONRegExp', 10],
  ['MaxKey', 11],
]);

const JS_TYPE_RANKS: ReadonlyMap<string, number> = new Map([
  ['number', 2],
  ['bigint', 2],
  ['string', 3],
  ['boolean', 7],
]);

/** A stored value's position in TYPE_ORDER; missing counts as null, as it does when sorting. */
export function sortRank(value: unknown): number {
  if (value === null || value === undefined) return NULL_RANK;
  const jsRank = JS_TYPE_RANKS.get(typeof value);
  if (jsRank !== undefined) return jsRank;
  if (value instanceof Date) return 8;
  if (value instanceof RegExp) return 10;
  if (value instanceof Uint8Array) return 5;
  const bsonType = (value as { _bsontype?: unknown })._bsontype;
  const bsonRank = typeof bsonType === 'string' ? BSON_CLASS_RANKS.get(bsonType) : undefined;
  return bsonRank ?? 4;
}

/** The value at a dotted path of a stored document; undefined when any step is missing. */
export function valueAt(doc: Record<string, unknown>, path: string): unknown {
  let node: unknown = doc;
  for (const seg of path.split('.')) {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || !Object.hasOwn(node, seg)) {
      return undefined;
    }
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

/**
 * The filter on one field for "sorts strictly after `value`" in `direction`, or null when
 * nothing can. `{$eq: null}` matches missing fields too, exactly as sort groups them with null.
 * `_id` is unique and always an ObjectId here, so it needs only the same-bracket comparison.
 */
function afterValue(path: string, direction: SortDirection, value: unknown): Record<string, unknown> | null {
  const rank = sortRank(value);
  const clauses: Record<string, unknown>[] = [];
  // `$gt: null` / `$lt: null` match nothing, so the null bracket relies on the type clauses alone.
  if (rank !== NULL_RANK) clauses.push({ [path]: { [direction === 1 ? '$gt' : '$lt']: value } });
  if (path !== '_id') {
    const later = (direction === 1 ? TYPE_ORDER.slice(rank + 1) : TYPE_ORDER.slice(0, rank)).flat();
    if (later.includes('null')) clauses.push({ [path]: { $eq: null } });
    const types = later.filter((t) => t !== 'null');
    if (types.length > 0) clauses.push({ [path]: { $type: types } });
  }
  const [first] = clauses;
  if (first === undefined) return null;
  return clauses.length === 1 ? first : { $or: clauses };
}

/**
 * Documents strictly after `last` (a stored document) in the order `fields`:
 * `(f1 after v1) or (f1 = v1 and f2 after v2) or ...`. Fields must be distinct and should end
 * with `_id` (parseSort does this) so the order is total and no tie spans a page boundary.
 */
export function keysetFilter(
  fields: Array<[string, SortDirection]>,
  last: Record<string, unknown>,
): Record<string, unknown> {
  const branches: Record<string, unknown>[] = [];
  fields.forEach(([path, direction], i) => {
    const after = afterValue(path, direction, valueAt(last, path));
    if (!after) return;
    const branch: Record<string, unknown> = {};
    for (const [prior] of fields.slice(0, i)) branch[prior] = { $eq: valueAt(last, prior) ?? null };
    branches.push(Object.assign(branch, after));
  });
  const [first] = branches;
  if (first === undefined) return { $nor: [{}] };
  return branches.length === 1 ? first : { $or: branches };
}

export type StatusFilter = 'published' | 'draft' | 'any';
const STATUSES: readonly StatusFilter[] = ['published', 'draft', 'any'];
const OBJECT_ID_HEX = /^[0-9a-fA-F]{24}$/;
const UNSIGNED = /^\d+$/;

export interface ListParams {
  limit: number;
  skip: number;
  /** Id of the last item of the previous page, 24 hex characters. */
  after: string | null;
  depth: number;
  status: StatusFilter;
  useCache: boolean;
}

export const LIST_DEFAULTS: Readonly<ListParams> = {
  limit: 1000,
  skip: 0,
  after: null,
  depth: 0,
  status: 'published',
  useCache: true,
};

const MAX_DEPTH = 3;

/**
 * The shared list parameters of a request's query string, every problem reported in one 400.
 * An empty value (`limit=`) means the default, as clients append parameters unconditionally.
 */
export function parseListParams(q: Record<string, unknown>): ListParams {
  const errors = new ValidationErrors();
  const read = (name: string): string | undefined => {
    const raw = q[name];
    if (raw === undefined) return undefined;
    if (typeof raw !== 'string') {
      errors.add(`${name} must be given once as a plain value`);
      return undefined;
    }
    return raw === '' ? undefined : raw;
  };
  const integer = (name: string, raw: string | undefined, min: number, max: number, fallback: number): number => {
    if (raw === undefined) return fallback;
    const rule = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
    const n = UNSIGNED.test(raw) ? Number(raw) : NaN;
    if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
    errors.add(`${name} must be ${rule}, got ${JSON.stringify(raw.slice(0, 40))}`);
    return fallback;
  };

  const skipRaw = read('skip');
  const limit = integer('limit', read('limit'), 1, Number.MAX_SAFE_INTEGER, LIST_DEFAULTS.limit);
  const skip = integer('skip', skipRaw, 0, Number.MAX_SAFE_INTEGER, LIST_DEFAULTS.skip);
  const depth = integer('depth', read('depth'), 0, MAX_DEPTH, LIST_DEFAULTS.depth);

  const afterRaw = read('after');
  if (afterRaw !== undefined && !OBJECT_ID_HEX.test(afterRaw)) {
    errors.add(`after must be an Object id (24 hexadecimal characters), got ${JSON.stringify(afterRaw.slice(0, 40))}`);
  }
  if (afterRaw !== undefined && skipRaw !== undefined) errors.add('skip cannot be combined with after');

  const statusRaw = read('status');
  const status = STATUSES.find((s) => s === statusRaw);
  if (statusRaw !== undefined && !status) {
    errors.add(`status must be one of ${STATUSES.join(', ')}, got ${JSON.stringify(statusRaw.slice(0, 40))}`);
  }

  const cacheName = q.useCache !== undefined ? 'useCache' : 'use_cache';
  const cacheRaw = read(cacheName);
  const useCache = cacheRaw === undefined ? LIST_DEFAULTS.useCache : cacheRaw === 'true' || cacheRaw === '1';
  if (cacheRaw !== undefined && !['true', 'false', '1', '0'].includes(cacheRaw)) {
    errors.add(`${cacheName} must be true or false, got ${JSON.stringify(cacheRaw.slice(0, 40))}`);
  }

  errors.throwIfAny('Invalid parameters');
  return {
    limit,
    skip,
    after: afterRaw === undefined ? null : afterRaw.toLowerCase(),
    depth,
    status: status ?? LIST_DEFAULTS.status,
    useCache,
  };
}
