import { ObjectId, type Document } from 'mongodb';
import type { SortSpec } from '../query/sort.js';

/**
 * A document's values of a list's sort fields, compared as MongoDB orders them, so a kept order
 * can take a written Object out and put it back where a fresh read would (list-orders.ts).
 * Only values whose order is the same on every engine are taken: missing and null, finite
 * numbers, strings without surrogate code units (UTF-16 and UTF-8 order then agree, and MongoDB
 * compares UTF-8 bytes), ObjectIds, booleans and valid dates. Anything else (arrays, which sort by
 * their least or greatest element, sub-documents, decimals, NaN) gives no key: the order is then
 * read again instead.
 */

/** A value's place among BSON types in MongoDB's order (null and missing are one); then the value itself. */
type Keyed = readonly [rank: number, value: number | string | Uint8Array | null];
export type SortKey = readonly Keyed[];
export type SortFields = Extract<SortSpec, { random: false }>['fields'];

/** Places in MongoDB's comparison order of BSON types; the gaps are types that never give a key here. */
export const RANK = { null: 0, number: 1, string: 2, objectId: 7, boolean: 8, date: 9 } as const;

/** Code units of the surrogate range: above them UTF-16 order differs from code point order. */
const SURROGATE = /[\uD800-\uDFFF]/;

function keyed(value: unknown): Keyed | null {
  if (value === undefined || value === null) return [RANK.null, null];
  if (typeof value === 'number') return Number.isNaN(value) ? null : [RANK.number, value];
  if (typeof value === 'string') return SURROGATE.test(value) ? null : [RANK.string, value];
  if (typeof value === 'boolean') return [RANK.boolean, value ? 1 : 0];
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : [RANK.date, value.getTime()];
  if (value instanceof ObjectId) return [RANK.objectId, value.id];
  return null;
}

/** The value at a dotted path; `null` when the path crosses an array (its sort value would be an element). */
function valueAt(doc: Document, path: string): { value: unknown } | null {
  let at: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(at)) return null;
    if (at === null || typeof at !== 'object' || at instanceof ObjectId || at instanceof Date)
      return { value: undefined };
    at = (at as Record<string, unknown>)[part];
  }
  return Array.isArray(at) ? null : { value: at };
}

/** `doc`'s key for `fields`, or null when a value is not one whose order is known here. */
export function sortKeyOf(doc: Document, fields: SortFields): SortKey | null {
  const key: Keyed[] = [];
  for (const [path] of fields) {
    const found = valueAt(doc, path);
    const k = found && keyed(found.value);
    if (!k) return null;
    key.push(k);
  }
  return key;
}

function compareKeyed([ra, a]: Keyed, [rb, b]: Keyed): number {
  if (ra !== rb) return ra - rb;
  if (a === null || b === null) return 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(a as Uint8Array, b as Uint8Array);
}

/** Negative when `a` sorts before `b` under `fields`' directions, positive after, 0 when equal. */
export function compareSortKeys(a: SortKey, b: SortKey, fields: SortFields): number {
  for (let i = 0; i < fields.length; i++) {
    const c = compareKeyed(a[i] as Keyed, b[i] as Keyed);
    if (c !== 0) return c * (fields[i] as SortFields[number])[1];
  }
  return 0;
}

/** What a read must project for `sortKeyOf`: the sort fields (and `_id`). */
export function sortProjection(fields: SortFields): Document {
  const projection: Document = { _id: 1 };
  for (const [path] of fields) projection[path] = 1;
  return projection;
}
