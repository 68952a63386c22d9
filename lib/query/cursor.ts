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
