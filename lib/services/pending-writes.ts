import type { Collection, Db, ObjectId } from 'mongodb';
import { objectsCollection, publishedObjectsCollection, revisionsCollection } from '../db/collections.js';
import { bumpGeneration } from './bucket-generation.js';
import { putLive } from './objects.js';
import { readOptions } from './query-time-limit.js';
import { recordRevision } from './revisions.js';

/**
 * Crash safety without transactions. A write of an Object runs these steps, in this order:
 *   1. insert a pending-write marker {object_id, bucket_id, at}
 *   2. write the latest version to `objects` (a single-document write: it happened or it did not)
 *   3. copy it to `published_objects` when it is published
 *   4. insert its revision (created_at = the version's modified_at)
 *   5. bump the Bucket generation
 *   6. delete the marker
 * Step 2 is the commit point. A crash before it leaves "nothing happened" (the marker alone); after
 * it, the latest version is the record of intent and steps 3–5 are idempotent to redo from it:
 * repair re-copies a published latest version to the live view, records the missing revision, and
 * bumps the generation so caches drop reads taken while the views were out of step.
 */
export interface PendingWriteDoc {
  object_id: ObjectId;
  bucket_id: ObjectId;
  at: Date;
}

export function pendingWritesCollection(db: Db): Collection<PendingWriteDoc> {
  return db.collection<PendingWriteDoc>('pending_writes');
}

export async function markPending(db: Db, objectId: ObjectId, bucketId: ObjectId): Promise<void> {
  await pendingWritesCollection(db).insertOne({ object_id: objectId, bucket_id: bucketId, at: new Date() });
}

export async function clearPending(db: Db, objectId: ObjectId): Promise<void> {
  await pendingWritesCollection(db).deleteMany({ object_id: objectId });
}

/** Brings one Object's views and revisions in line with its latest version; a no-op without a marker. */
export async function repairObject(db: Db, objectId: ObjectId): Promise<boolean> {
  const marker = await pendingWritesCollection(db).findOne({ object_id: objectId }, readOptions(db));
  if (!marker) return false;
  const latest = await objectsCollection(db).findOne({ _id: objectId }, readOptions(db));
  if (!latest) {
    // Crashed before the commit point of a create (or mid-delete): roll back to "no Object".
    await publishedObjectsCollection(db).deleteOne({ _id: objectId });
    await revisionsCollection(db).deleteMany({ object_id: objectId });
  } else {
    if (latest.status === 'published') await putLive(db, latest);
    const last = await revisionsCollection(db).findOne(
      { object_id: objectId },
      { sort: { created_at: -1, _id: -1 }, ...readOptions(db) },
    );
    if (!last || last.created_at.getTime() < latest.modified_at.getTime()) {
      const publishing =
        latest.status === 'published' && latest.published_at?.getTime() === latest.modified_at.getTime();
      const reason = !last ? 'create' : publishing ? 'publish' : 'edit';
      await recordRevision(db, latest, reason, latest.modified_at);
    }
  }
  await bumpGeneration(db, marker.bucket_id);
  await clearPending(db, objectId);
  return true;
}

/** Start-up repair: only Objects with a marker can be out of step. Returns how many were repaired. */
export async function repairPendingWrites(db: Db): Promise<number> {
  const ids = await pendingWritesCollection(db).distinct('object_id');
  let repaired = 0;
  for (const id of ids) if (await repairObject(db, id)) repaired++;
  return repaired;
}
