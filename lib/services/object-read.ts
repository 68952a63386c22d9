import type { Db } from 'mongodb';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { expandObject } from '../populate/expand.js';
import { fetchRelated } from '../populate/fetch-related.js';
import { viewFor, type StatusFilter } from './object-views.js';
import { getObject } from './objects.js';

/** One Object with its relationships resolved `depth` levels deep. */
export async function getObjectExpanded(db: Db, bucket: BucketDoc, id: string, opts: { status: StatusFilter; depth: number }): Promise<ObjectDoc> {
  const doc = await getObject(db, bucket, id, opts.status);
  if (opts.depth === 0) return doc;
  const related = await fetchRelated(viewFor(db, opts.status), bucket, [doc], opts.depth);
  return expandObject(doc, related, opts.depth);
}
