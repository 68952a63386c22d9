import type { Collection, Db, Document, Filter, ObjectId } from 'mongodb';
import type { BatchWrite } from '../db/write-batch.js';
import { objectsCollection, objectTypesCollection, type BucketDoc } from '../db/collections.js';
import { mediaCollection } from '../store/media.js';
import { planLimitReached } from '../errors/limit-errors.js';
import { isDuplicateKey } from '../errors/mongo-errors.js';
import { readOptions } from '../db/service-db.js';
import { webhooksCollection } from '../store/webhooks.js';
import { effectivePlan, limitOf, PLAN_LIMITS, UNLIMITED, type CountedResource, type Plan } from '../config/plan.js';

/**
 * What a Bucket holds of each resource its plan limits, kept by the writes themselves: a create
 * reserves its share with a conditional $inc before it writes (so two writes racing for the last
 * slot cannot both get it) and gives it back if the write fails; a delete subtracts what it
 * removed. One document per Bucket, `_id` the Bucket's id.
 */
export interface UsageDoc extends Record<CountedResource, number> {
  _id: ObjectId;
  /** The same id, so deleting a Bucket's documents by bucket_id removes this one too. */
  bucket_id: ObjectId;
  /** The last Objects a delete counted off (`objectRemovalWrite`), so a delete finished twice counts once. */
  removed_objects?: ObjectId[];
}

/** How many counted-off Object ids the usage document keeps: more than deletes of one Object can overlap. */
const REMOVALS_KEPT = 64;

/**
 * Counts one Object off the plan, once however often it is sent: a delete's own command and a
 * reader that finishes the same delete (lib/objects/write/delete-write.ts) may both send it. Without a
 * usage document nothing is counted; the first count of the holdings then finds the Object gone.
 */
export function objectRemovalWrite(db: Db, bucketId: ObjectId, objectId: ObjectId): BatchWrite {
  // A Document: the driver's types know no $push with $each onto an optional array of ObjectIds.
  const removed: Document = { removed_objects: { $each: [objectId], $slice: -REMOVALS_KEPT } };
  return {
    to: usageCollection(db),
    model: {
      name: 'updateOne',
      filter: { _id: bucketId, removed_objects: { $ne: objectId } },
      update: { $inc: { objects: -1 }, $push: removed },
    },
  };
}

export function usageCollection(db: Db): Collection<UsageDoc> {
  return db.collection<UsageDoc>('bucket_usage');
}

async function mediaBytes(db: Db, bucketId: ObjectId): Promise<number> {
  const [sum] = await mediaCollection(db)
    .aggregate<{ total: number }>(
      [{ $match: { bucket_id: bucketId } }, { $group: { _id: null, total: { $sum: '$size' } } }],
      readOptions(db),
    )
    .toArray();
  return sum?.total ?? 0;
}

/** What the Bucket holds, counted from the collections themselves. */
export async function countHoldings(db: Db, bucketId: ObjectId): Promise<Record<CountedResource, number>> {
  const filter = { bucket_id: bucketId };
  return {
    objects: await objectsCollection(db).countDocuments(filter, readOptions(db)),
    media_bytes: await mediaBytes(db, bucketId),
    object_types: await objectTypesCollection(db).countDocuments(filter, readOptions(db)),
    webhooks: await webhooksCollection(db).countDocuments(filter, readOptions(db)),
  };
}

/**
 * Makes sure the Bucket's counters exist, counting its holdings when they do not (a Bucket made
 * before plans existed). Every write that changes a count calls this (directly or through
 * `reserve`) before its own change, so a count taken here can never miss or repeat a change
 * made through the counters.
 */
export async function ensureUsage(db: Db, bucketId: ObjectId): Promise<UsageDoc> {
  const found = await usageCollection(db).findOne({ _id: bucketId }, readOptions(db));
  if (found) return found;
  const counts = await countHoldings(db, bucketId);
  try {
    const created = await usageCollection(db).findOneAndUpdate(
      { _id: bucketId },
      { $setOnInsert: { bucket_id: bucketId, ...counts } },
      { upsert: true, returnDocument: 'after' },
    );
    if (created) return created;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  // Another process created them at the same moment: theirs stand.
  const theirs = await usageCollection(db).findOne({ _id: bucketId }, readOptions(db));
  return theirs ?? { _id: bucketId, bucket_id: bucketId, ...counts };
}

/** A reserved share of a limit: `keep` it once the write has happened; `settle` gives it back otherwise. */
export interface Reservation {
  keep(): void;
  /** Call in `finally`: returns the share unless it was kept (once, however often it is called). */
  settle(): Promise<void>;
}

function addTo(resource: CountedResource, amount: number, limit: number | null, bucketId: ObjectId) {
  const filter: Filter<UsageDoc> =
    limit === null ? { _id: bucketId } : { _id: bucketId, [resource]: { $lte: limit - amount } };
  return { filter, update: { $inc: { [resource]: amount } } };
}

/**
 * Takes `amount` of `resource` for a write about to happen, or refuses it with 402 when the
 * Bucket's plan (its own, over `defaults`) would be passed. The check and the take are one
 * conditional update, so concurrent writes cannot share the last slot.
 */
export async function reserve(
  db: Db,
  bucket: BucketDoc,
  defaults: Plan | undefined,
  resource: CountedResource,
  amount: number,
): Promise<Reservation> {
  const limit = limitOf(effectivePlan(bucket.plan, defaults ?? UNLIMITED), resource);
  const { filter, update } = addTo(resource, amount, limit, bucket._id);
  let taken = (await usageCollection(db).updateOne(filter, update)).matchedCount === 1;
  if (!taken) {
    const usage = await ensureUsage(db, bucket._id);
    taken = (await usageCollection(db).updateOne(filter, update)).matchedCount === 1;
    if (!taken && limit !== null) {
      const used = usage[resource];
      const adding = amount === 1 ? '' : `, and this write adds ${amount}`;
      throw planLimitReached(bucket.slug, PLAN_LIMITS[resource], limit, `the bucket has ${used}${adding}`);
    }
  }
  let done = false;
  return {
    keep() {
      done = true;
    },
    async settle() {
      if (done) return;
      done = true;
      await countRemoval(db, bucket._id, resource, amount);
    },
  };
}

/**
 * Subtracts what a delete removed. The caller ran `ensureUsage` before deleting, so the counters
 * existed before the delete and a count cannot already exclude what is subtracted here.
 */
export async function countRemoval(
  db: Db,
  bucketId: ObjectId,
  resource: CountedResource,
  amount: number,
): Promise<void> {
  if (amount > 0) await usageCollection(db).updateOne({ _id: bucketId }, { $inc: { [resource]: -amount } });
}
