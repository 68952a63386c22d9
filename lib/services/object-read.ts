import type { Db } from 'mongodb';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { fetchExpandedPage } from '../populate/fetch-page.js';
import { viewFor, type StatusFilter } from './object-views.js';
import { notFound } from '../errors/not-found.js';
import { getObject, parseObjectId } from './objects.js';
import type { ReadBounds } from './read-budget.js';

/** One Object with its relationships resolved `depth` levels deep, in one round trip. */
export async function getObjectExpanded(
  db: Db,
  bucket: BucketDoc,
  id: string,
  opts: { status: StatusFilter; depth: number },
  bounds: ReadBounds,
): Promise<ObjectDoc> {
  if (opts.depth === 0) return getObject(db, bucket, id, opts.status);
  const view = viewFor(db, opts.status);
  const head = [{ $match: { _id: parseObjectId(bucket, id), bucket_id: bucket._id, ...view.match } }, { $limit: 1 }];
  const [doc] = await fetchExpandedPage(view, bucket, head, null, opts.depth, bounds);
  if (!doc) throw notFound('object', id, bucket.slug);
  return doc;
}
