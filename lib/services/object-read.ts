import type { Db } from 'mongodb';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { expandObject } from '../populate/expand.js';
import { fetchRelated } from '../populate/fetch-related.js';
import { getObject, statusMatch, type StatusFilter } from './objects.js';

/** One Object with its relationships resolved `depth` levels deep. */
export async function getObjectExpanded(db: Db, bucket: BucketDoc, id: string, opts: { status: StatusFilter; depth: number }): Promise<ObjectDoc> {
  const doc = await getObject(db, bucket, id, opts.status);
  if (opts.depth === 0) return doc;
  const related = await fetchRelated(db, bucket, [doc], opts.depth, statusMatch(opts.status));
  return expandObject(doc, related, opts.depth);
}
