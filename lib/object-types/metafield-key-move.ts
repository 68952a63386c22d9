import type { Db } from 'mongodb';
import {
  objectsCollection,
  objectTypesCollection,
  publishedObjectsCollection,
  type ObjectTypeDoc,
} from '../db/collections.js';
import { bumpGeneration } from '../cache/bucket-generation.js';
import { ensureSortableIndexes } from '../db/indexes.js';
import { countObjectsHolding, holdingKey } from './metafield-usage.js';
import type { TypeWriteLease } from './type-write-lease.js';

/**
 * The steps of a Metafield key rename after its commit point, taken as a type slug rename takes
 * its own (object-type-rename.ts), under the Bucket's type-write lease:
 *   1. (the commit, metafield-key-rename.ts) the type's Metafield takes its new key together with
 *      `key_rename: {from, to, pending: true}`, in one write: from here Object writes validate
 *      and render by the new key.
 *   2. the generation is bumped, so no process serves cached reads under the old key.
 *   3. the latest versions (drafts included) and the live copies move their value from
 *      `metadata.<from>` to `metadata.<to>`. Revisions are left as they were: they are the
 *      record of what each version held, and restoring one goes through the type's checks.
 *   4. the sortable index of the new key is made, when the Metafield is sortable.
 *   5. `key_rename.pending` is cleared and the generation bumped again.
 * Steps 2–5 are idempotent: step 3 only touches documents still holding the old key, and a
 * value some document held under the new key before (left by a Metafield removed earlier) is
 * replaced, as the type's Metafield of that key is now this one. Every type write, and start-up
 * repair, finishes a pending key rename first (finishPendingRenames).
 * Returns how many Objects this call moved (none again on a retry after a crash past step 3).
 */
export async function completeKeyRename(db: Db, type: ObjectTypeDoc, lease: TypeWriteLease): Promise<number> {
  const move = type.key_rename;
  if (!move?.pending) return 0;
  const { from, to } = move;
  // Before the Objects move, too: versions kept for edits are kept per generation (version-memo.ts).
  await bumpGeneration(db, type.bucket_id);
  const holding = holdingKey(type.bucket_id, type.slug, from, false);
  const moved = await countObjectsHolding(db, holding);
  for (const coll of [objectsCollection(db), publishedObjectsCollection(db)]) {
    lease.assertHeld();
    await coll.updateMany(holding, { $rename: { [`metadata.${from}`]: `metadata.${to}` } });
  }
  if (type.metafields.some((m) => m.key === to && m.sortable === true)) await ensureSortableIndexes(db, [to]);
  lease.assertHeld();
  await objectTypesCollection(db).updateOne(
    { _id: type._id, 'key_rename.pending': true },
    { $set: { 'key_rename.pending': false } },
  );
  await bumpGeneration(db, type.bucket_id);
  return moved;
}
