import type { Db } from 'mongodb';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { expandRelated } from '../populate/fetch-related.js';
import { viewFor, type StatusFilter } from './object-views.js';
import { getObject } from './objects.js';
import { ByteBudget, type ReadBounds } from './read-budget.js';

/** One Object with its relationships resolved `depth` levels deep: one read, then one per level. */
export async function getObjectExpanded(
  db: Db,
  bucket: BucketDoc,
  id: string,
  opts: { status: StatusFilter; depth: number },
  bounds: ReadBounds,
): Promise<ObjectDoc> {
  const doc = await getObject(db, bucket, id, opts.status);
  if (opts.depth === 0) return doc;
  const budget = new ByteBudget(bounds.maxBytes);
  budget.add(doc);
  const [expanded] = await expandRelated(viewFor(db, opts.status), bucket, [doc], opts.depth, bounds, budget);
  return expanded ?? doc;
}
