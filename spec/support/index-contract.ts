import { ObjectId, type Document } from 'mongodb';
import type { IndexSpec } from '../../lib/db/indexes.js';
import type { SortDirection } from '../../lib/query/sort.js';

/*
 * The index contract: on MongoDB every list reads an index that leads with `bucket_id` and serves
 * its sort, so the page is an index range read in order, never a collection scan or an in-memory
 * sort. The engine the tests run on ignores secondary indexes, so no timing or plan would show a
 * broken contract there; the index-contract specs check what the query builders build against
 * the declared indexes with these helpers.
 */

export type SortFields = ReadonlyArray<readonly [string, SortDirection]>;

function isScalar(v: unknown): boolean {
  return ['string', 'number', 'boolean'].includes(typeof v) || v instanceof ObjectId || v instanceof Date;
}

/** A value that pins its field to one value, or to a short list MongoDB reads as separate ranges. */
export function isPoint(v: unknown): boolean {
  if (isScalar(v)) return true;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const entries = Object.entries(v);
  if (entries.length !== 1) return false;
  const [op, arg] = entries[0]!;
  return (op === '$eq' && isScalar(arg)) || (op === '$in' && Array.isArray(arg) && arg.every(isScalar));
}

/** Fields `filter` pins at its top level or inside `$and` (other clauses only narrow the range). */
export function pinnedFields(filter: Document, out = new Set<string>()): Set<string> {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and') for (const clause of value as Document[]) pinnedFields(clause, out);
    else if (!key.startsWith('$') && isPoint(value)) out.add(key);
  }
  return out;
}

/**
 * Whether `index` serves `filter` sorted by `sort`: it leads with a pinned `bucket_id`, every
 * field before the sort is pinned, and the sort fields follow in index order (all directions as
 * declared, or all reversed: an index reads both ways). Without a sort, the pinned lead suffices.
 */
export function serves(index: IndexSpec, filter: Document, sort: SortFields | null): boolean {
  const keys = Object.entries(index.key);
  const pins = pinnedFields(filter);
  if (keys[0]?.[0] !== 'bucket_id' || !pins.has('bucket_id')) return false;
  if (!sort) return true;
  const start = keys.findIndex(([k]) => k === sort[0]?.[0]);
  if (start < 0 || keys.slice(0, start).some(([k]) => !pins.has(k))) return false;
  const flip = keys[start]![1] === sort[0]![1] ? 1 : -1;
  return sort.every(([field, dir], i) => keys[start + i]?.[0] === field && keys[start + i]![1] * flip === dir);
}
