import { ObjectId, type Collection, type Filter } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { BadRequestError } from '../errors/http-errors.js';
import { keysetFilter } from './cursor.js';
import type { SortSpec } from './sort.js';
import type { ReadOptions } from '../db/service-db.js';

/** Where a list reads its items from, and what an item is called in messages. */
export interface CursorSource<T extends { _id: ObjectId; bucket_id: ObjectId }> {
  coll: Collection<T>;
  readOptions: ReadOptions;
  /** "Object", "media item". */
  what: string;
}

/**
 * The `after` cursor of every list that takes it (Objects, media): the keyset filter for the
 * items strictly after the item `after` in `sort`, or null without a cursor. The item is read
 * with only the sort fields, so it is one indexed lookup by id; it must belong to the Bucket.
 */
export async function afterCursorFilter<T extends { _id: ObjectId; bucket_id: ObjectId }>(
  source: CursorSource<T>,
  bucket: BucketDoc,
  sort: SortSpec,
  after: string | undefined,
): Promise<Record<string, unknown> | null> {
  if (after === undefined) return null;
  if (sort.random)
    throw new BadRequestError(
      'after cannot be used with sort=random: a random order has no position to continue from',
      'invalid_parameter',
    );
  const projection = Object.fromEntries(sort.fields.map(([f]) => [f, 1]));
  const byId = { _id: new ObjectId(after), bucket_id: bucket._id } as Filter<T>;
  // Only the sort fields are projected, so the document is read as a plain record.
  const last = await source.coll.findOne<Record<string, unknown>>(byId, { projection, ...source.readOptions });
  if (!last) {
    throw new BadRequestError(
      `after: no ${source.what} with id '${after}' in bucket '${bucket.slug}'`,
      'invalid_parameter',
    );
  }
  return keysetFilter(sort.fields, last);
}
