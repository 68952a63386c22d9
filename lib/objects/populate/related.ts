import type { Filter, ObjectId } from 'mongodb';
import type { ObjectDoc } from '../../db/collections.js';

/**
 * The ids a level of expansion must look up: every id in the `refs` of `docs`, once, except those
 * already looked up (found or not). `refs` lists every related Object id found anywhere in an
 * Object's metadata (kept on write), so no knowledge of the types is needed.
 */
export function idsToLookUp(
  docs: Iterable<Partial<Pick<ObjectDoc, 'refs'>>>,
  lookedUp: { has(hex: string): boolean },
): ObjectId[] {
  const out = new Map<string, ObjectId>();
  for (const doc of docs) {
    for (const id of doc.refs ?? []) {
      const hex = id.toHexString();
      if (!lookedUp.has(hex)) out.set(hex, id);
    }
  }
  return [...out.values()];
}

/**
 * The filter of one lookup of related Objects: by `_id`, which the `_id` index serves (the
 * embedded engine's launcher starts from it too when other fields are named), and by Bucket, so a
 * cluster sharded by Bucket asks one shard. The view is checked on the documents it returns.
 */
export function relatedFilter(bucketId: ObjectId, ids: readonly ObjectId[]): Filter<ObjectDoc> {
  return { _id: { $in: [...ids] }, bucket_id: bucketId };
}

/** `items` in consecutive slices of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
