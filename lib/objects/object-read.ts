import type { Db } from 'mongodb';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { expandRelated } from './populate/fetch-related.js';
import { scopedView, viewFor, type StatusFilter } from './object-views.js';
import { getObject } from './objects.js';
import { ByteBudget, type ReadBounds } from '../query/read-budget.js';

/** One Object with its relationships resolved `depth` levels deep: one read, then one per level. */
export async function getObjectExpanded(
  db: Db,
  bucket: BucketDoc,
  id: string,
  opts: { status: StatusFilter; depth: number; typeScope?: readonly string[] | null },
  bounds: ReadBounds,
): Promise<ObjectDoc> {
  const doc = await getObject(db, bucket, id, opts.status);
  if (opts.depth === 0) return doc;
  const budget = new ByteBudget(bounds.maxBytes);
  budget.add(doc);
  const view = scopedView(viewFor(db, opts.status), opts.typeScope ?? null);
  const [expanded] = await expandRelated(view, bucket, [doc], opts.depth, bounds, budget);
  return expanded ?? doc;
}
