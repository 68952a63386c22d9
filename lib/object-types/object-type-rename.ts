import type { Db, ObjectId } from 'mongodb';
import {
  objectsCollection,
  objectTypesCollection,
  publishedObjectsCollection,
  revisionsCollection,
  type ObjectTypeDoc,
} from '../db/collections.js';
import { HttpError } from '../errors/http-errors.js';
import { bumpGeneration } from '../cache/bucket-generation.js';
import { readOptions } from '../db/service-db.js';
import { completeKeyRename } from './metafield-key-move.js';
import { renameReferences } from '../metafields/type-references.js';
import { TYPE_WRITE_LEASE, withTypeWriteLease, type TypeWriteLease } from './type-write-lease.js';

/**
 * Renaming an Object type without transactions, in steps ordered so that a crash between any
 * two leaves a state the next attempt completes:
 *   1. the type document takes its new slug together with `rename: {from, pending: true}`, in
 *      one write (updateObjectType). This is the commit point: the unique index settles a race
 *      for the new slug, and from here no new Object write can name the old one.
 *   2. the generation is bumped, so no process serves cached reads of the old slug.
 *   3. every Object type of the Bucket (this one included) whose relationship Metafields name
 *      the old slug, at any depth, names the new one.
 *   4. the Objects (latest and live views) and their revisions take the new slug. Revisions are
 *      relabelled too: they are rendered with their type's Metafields and deleted with the type,
 *      both by slug, and the slug is only the type's name, not content of the version.
 *   5. `rename.pending` is cleared and the generation bumped again.
 * Steps 3–5 are idempotent. Every type write of the Bucket holds its lease (type-write-lease.ts)
 * and first finishes a pending rename, as does start-up repair; `rename.from` stays on the type,
 * so a retry of the same PATCH after a crash (or after a lost response) completes instead of
 * answering 404.
 */
export async function completeRename(db: Db, type: ObjectTypeDoc, lease: TypeWriteLease): Promise<void> {
  const from = type.rename?.from;
  if (from === undefined) return;
  const to = type.slug;
  const bucketId = type.bucket_id;
  await bumpGeneration(db, bucketId);
  const types = objectTypesCollection(db);
  for (const other of await types.find({ bucket_id: bucketId }, readOptions(db)).toArray()) {
    const metafields = renameReferences(other.metafields, from, to);
    lease.assertHeld();
    if (metafields) await types.updateOne({ _id: other._id }, { $set: { metafields, modified_at: new Date() } });
  }
  for (const coll of [objectsCollection(db), publishedObjectsCollection(db), revisionsCollection(db)]) {
    lease.assertHeld();
    await coll.updateMany({ bucket_id: bucketId, type: from }, { $set: { type: to } });
  }
  lease.assertHeld();
  await types.updateOne({ _id: type._id, 'rename.pending': true }, { $set: { 'rename.pending': false } });
  await bumpGeneration(db, bucketId);
}

/**
 * Completes the renames of a Bucket a crash interrupted, type slugs first and then Metafield keys
 * (read again, so a key rename moves the Objects under the type's slug of now); the caller holds
 * the Bucket's lease.
 */
export async function finishPendingRenames(db: Db, bucketId: ObjectId, lease: TypeWriteLease): Promise<void> {
  const types = objectTypesCollection(db);
  const pending = await types.find({ bucket_id: bucketId, 'rename.pending': true }, readOptions(db)).toArray();
  for (const type of pending) await completeRename(db, type, lease);
  const keys = await types.find({ bucket_id: bucketId, 'key_rename.pending': true }, readOptions(db)).toArray();
  for (const type of keys) await completeKeyRename(db, type, lease);
}

/**
 * Start-up repair: finishes every interrupted rename. It waits out a lease a crashed process left
 * behind; a Bucket whose lease stays busy longer is skipped, as a live holder finishes pending
 * renames before anything else. Returns how many Buckets had renames to finish.
 */
export async function repairPendingRenames(db: Db): Promise<number> {
  const bucketIds = await objectTypesCollection(db).distinct('bucket_id', {
    $or: [{ 'rename.pending': true }, { 'key_rename.pending': true }],
  });
  const timing = { ...TYPE_WRITE_LEASE, waitMs: TYPE_WRITE_LEASE.leaseMs + TYPE_WRITE_LEASE.renewEveryMs };
  let repaired = 0;
  for (const bucketId of bucketIds) {
    try {
      await withTypeWriteLease(db, bucketId, (lease) => finishPendingRenames(db, bucketId, lease), timing);
      repaired++;
    } catch (err) {
      if (!(err instanceof HttpError && err.code === 'type_write_busy')) throw err;
    }
  }
  return repaired;
}
