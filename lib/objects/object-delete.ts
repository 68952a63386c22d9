import type { ObjectId } from 'mongodb';
import {
  objectsCollection,
  publishedObjectsCollection,
  revisionsCollection,
  type BucketDoc,
  type ObjectDoc,
} from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { countRemoval, ensureUsage } from '../limits/usage-counters.js';
import { finishWrite, type DomainEvent, type EventDeps } from '../events/domain-events.js';
import { findObject, foundObject, parseObjectId } from './objects.js';
import { clearPending, pendingWritesCollection, repairThenRead } from './pending-writes.js';
import { readOptions } from '../db/query-time-limit.js';
import { deleteClaimed } from './delete-write.js';
import { finishCarried } from './version-write.js';
import { HttpError } from '../errors/http-errors.js';
import { checkRememberedBucket } from '../buckets/remembered-bucket.js';
import type { VersionGuard } from './object-version.js';

/** Objects a type delete removes per round: bounds memory and the size of each delete. */
const PAGE = 500;

/**
 * Deletes Objects as read (latest versions) with their live copies and revisions. Step order, by
 * the marker protocol of pending-writes.ts: markers (each holding the Object's object.deleted
 * event, rendered now, when `notify`) → delete from `objects` (the commit point) → live copies
 * and revisions → bump and emit → clear the markers. Repair of a marker whose Object is gone
 * finishes the rest and emits its event. Returns how many Objects it deleted.
 */
async function deleteObjects(deps: EventDeps, bucket: BucketDoc, docs: ObjectDoc[], notify: boolean): Promise<number> {
  const { db } = deps;
  const events: DomainEvent[] = [];
  if (notify)
    for (const doc of docs) events.push(await deps.events.describe(db, bucket, { type: 'object.deleted', doc }));
  const at = new Date();
  const markers = docs.map((doc, i) => ({
    object_id: doc._id,
    bucket_id: bucket._id,
    at,
    ...(notify && { event: events[i] }),
  }));
  const markerIds = Object.values((await pendingWritesCollection(db).insertMany(markers)).insertedIds);
  const ids: ObjectId[] = docs.map((d) => d._id);
  await ensureUsage(db, bucket._id);
  const { deletedCount } = await objectsCollection(db).deleteMany({ _id: { $in: ids }, bucket_id: bucket._id });
  if (deletedCount > 0) {
    await countRemoval(db, bucket._id, 'objects', deletedCount);
    await publishedObjectsCollection(db).deleteMany({ _id: { $in: ids }, bucket_id: bucket._id });
    await revisionsCollection(db).deleteMany({ object_id: { $in: ids }, bucket_id: bucket._id });
    await finishWrite(deps, bucket._id, events);
  }
  await clearPending(db, markerIds);
  return deletedCount;
}

/** Claims before giving up with 409: each retry means another write of the Object just landed. */
const DELETE_ATTEMPTS = 8;

/**
 * DELETE of one Object (route, batch). `notify`: the request's trigger_webhook. The Object
 * carries its delete and goes last, all in one command where the servers can (delete-write.ts);
 * with event sinks besides the outbox, which hear of a delete after its commit point and before
 * its end, it goes the way of a type delete's Objects, with a marker.
 */
export async function removeObject(
  deps: EventDeps,
  bucket: BucketDoc,
  id: string,
  notify: boolean,
  guard?: VersionGuard,
): Promise<void> {
  const objectId = parseObjectId(bucket, id);
  // An earlier crashed write of this Object settles first, with its own event.
  let read: ObjectDoc | null | undefined = (await repairThenRead(deps, objectId, bucket._id)).latest;
  for (let attempt = 1; ; attempt++) {
    // Gone meanwhile (another delete won the race): answered like any delete of an unknown id.
    const doc = foundObject(
      read !== undefined ? read : await findObject(deps.db, bucket._id, objectId, 'any'),
      bucket,
      id,
    );
    read = undefined;
    // Work a write left (running, or dead) is finished first, as an edit does: another delete's
    // claim is finished, and this one then answers 404.
    if (await finishCarried(deps, doc)) continue;
    // The claim below is conditional on this version, so a newer one landing after the check misses it.
    if (guard && !guard.accepts(doc)) throw guard.otherwise(doc);
    if (deps.events.hasSinks) {
      // Its markers are written before anything it could put in one command with a check.
      await checkRememberedBucket(deps.db, bucket);
      if ((await deleteObjects(deps, bucket, [doc], notify)) === 0) throw notFound('object', id, bucket.slug);
      return;
    }
    if (await deleteClaimed(deps, bucket, doc, notify)) return;
    if (attempt >= DELETE_ATTEMPTS)
      throw new HttpError(
        409,
        `Object ${id} was changed by other writes ${String(DELETE_ATTEMPTS)} times while this delete ran; nothing was deleted, retry the request`,
        'conflict',
      );
  }
}

/**
 * The cascade of a type delete: every Object of `typeSlug`, a page at a time, each through the
 * same delete as a single one. `beforePage` lets the caller check it still holds its lease.
 */
export async function removeObjectsOfType(
  deps: EventDeps,
  bucket: BucketDoc,
  typeSlug: string,
  notify: boolean,
  beforePage: () => void,
): Promise<void> {
  for (;;) {
    beforePage();
    const page = await objectsCollection(deps.db)
      .find({ bucket_id: bucket._id, type: typeSlug }, readOptions(deps.db))
      .limit(PAGE)
      .toArray();
    if (page.length === 0) break;
    await deleteObjects(deps, bucket, page, notify);
  }
}
