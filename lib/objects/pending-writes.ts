import type { Collection, Db, ObjectId } from 'mongodb';
import {
  objectsCollection,
  publishedObjectsCollection,
  revisionsCollection,
  type ObjectDoc,
  type RevisionDoc,
} from '../db/collections.js';
import { bucketById, finishWrite, type DomainEvent, type EventDeps } from '../events/domain-events.js';
import { putLive } from './objects.js';
import { readOptions } from '../db/query-time-limit.js';
import { recordRevision } from '../revisions/revisions.js';
import { carryingWork, eventOfReason, finishCarried } from './version-write.js';

/**
 * Pending-write markers: the crash-repair record of deletes (a delete's Object is gone, so its
 * marker carries the event, rendered before the delete: object-delete.ts), and of version writes
 * made before those carried their work inside the Object (version-write.ts). Repair here settles
 * both: markers, and the work an Object carries. Start-up repair and the stale sweep still read
 * this collection, so markers an older release left behind are finished too.
 * A marker of a version write: {object_id, bucket_id, at, intent}; the intent names the version
 * being written (its modified_at), its revision reason, whether it withdraws the live version and
 * whether it notifies. The write put it down before its commit point and deleted it last.
 */
export interface PendingWriteDoc {
  _id?: ObjectId;
  object_id: ObjectId;
  bucket_id: ObjectId;
  at: Date;
  /** Absent for deletes and for markers written before intents were recorded. */
  intent?: WriteIntent;
  /** A delete that notifies: its event, rendered before the delete. */
  event?: DomainEvent;
}

export interface WriteIntent {
  version: Date;
  reason: RevisionDoc['reason'];
  withdraw: boolean;
  /** Absent on markers written before events: they notified nobody. */
  notify?: boolean;
}

export function pendingWritesCollection(db: Db): Collection<PendingWriteDoc> {
  return db.collection<PendingWriteDoc>('pending_writes');
}

export async function markPending(
  db: Db,
  objectId: ObjectId,
  bucketId: ObjectId,
  record: Pick<PendingWriteDoc, 'intent' | 'event'> = {},
): Promise<ObjectId> {
  const marker: PendingWriteDoc = { object_id: objectId, bucket_id: bucketId, at: new Date(), ...record };
  return (await pendingWritesCollection(db).insertOne(marker)).insertedId;
}

/** A legacy marker's version write: its bump and, when it notifies, its event. */
async function finishVersion(deps: EventDeps, doc: ObjectDoc, intent: WriteIntent | undefined): Promise<void> {
  const bucket = intent?.notify ? await bucketById(deps.db, doc.bucket_id) : null;
  const event =
    bucket && intent ? [await deps.events.describe(deps.db, bucket, { type: eventOfReason(intent.reason), doc })] : [];
  await finishWrite(deps, doc.bucket_id, event);
}

/**
 * Removes the markers a write or a repair put down or settled, by their ids: another process
 * writing the same Object at the same time keeps its own marker until it is done.
 */
export async function clearPending(db: Db, markerIds: readonly ObjectId[]): Promise<void> {
  await pendingWritesCollection(db).deleteMany({ _id: { $in: [...markerIds] } });
}

/** What a write that left no intent most likely was, read from the version it left. */
function guessedReason(latest: ObjectDoc, hasRevisions: boolean): RevisionDoc['reason'] {
  if (!hasRevisions) return 'create';
  const publishing = latest.status === 'published' && latest.published_at?.getTime() === latest.modified_at.getTime();
  return publishing ? 'publish' : 'edit';
}

/**
 * Brings one Object's views, revisions and events in line with its latest version: finishes the
 * work it carries and settles its markers. A no-op for an Object in step. `bucketId`, when the
 * caller knows it, sends the lookups to one shard of a cluster sharded by Bucket.
 */
export async function repairObject(deps: EventDeps, objectId: ObjectId, bucketId?: ObjectId): Promise<boolean> {
  return (await repairThenRead(deps, objectId, bucketId)).repaired;
}

/**
 * `repairObject`, and the latest version once repaired: the read beside the markers when there
 * was nothing to repair (a write that goes on from it reads it once), else read again.
 */
export async function repairThenRead(
  deps: EventDeps,
  objectId: ObjectId,
  bucketId?: ObjectId,
): Promise<{ repaired: boolean; latest: ObjectDoc | null }> {
  const filter = bucketId ? { _id: objectId, bucket_id: bucketId } : { _id: objectId };
  const read = () => objectsCollection(deps.db).findOne(filter, readOptions(deps.db));
  const [marked, carried] = await Promise.all([repairMarkers(deps, objectId), read()]);
  // After the markers: their repair finishes an older write; the carried work is the latest one's.
  const latest = marked ? await read() : carried;
  const finished = latest ? await finishCarried(deps, latest) : false;
  const repaired = marked || finished;
  return { repaired, latest: finished ? await read() : latest };
}

/** Settles the markers of `objectId` (see the top of this file); false when it has none. */
async function repairMarkers(deps: EventDeps, objectId: ObjectId): Promise<boolean> {
  const { db } = deps;
  const markers = await pendingWritesCollection(db).find({ object_id: objectId }, readOptions(db)).toArray();
  const first = markers[0];
  if (!first) return false;
  // Every lookup names the marker's Bucket: a cluster sharded by Bucket sends it to one shard.
  const bucket_id = first.bucket_id;
  const latest = await objectsCollection(db).findOne({ _id: objectId, bucket_id }, readOptions(db));
  if (!latest) {
    // Crashed before the commit point of a create (or mid-delete): roll back to "no Object".
    await publishedObjectsCollection(db).deleteOne({ _id: objectId, bucket_id });
    await revisionsCollection(db).deleteMany({ object_id: objectId, bucket_id });
    // A delete that passed its commit point notifies as it would have (markers of creates carry no event).
    const events = markers.flatMap((m) => (m.event ? [m.event] : []));
    await finishWrite(deps, first.bucket_id, events.slice(0, 1));
  } else {
    // Only the write whose version is the latest passed its commit point; others changed nothing.
    const intent = markers.find((m) => m.intent?.version.getTime() === latest.modified_at.getTime())?.intent;
    if (latest.status === 'published') await putLive(db, latest);
    else if (intent?.withdraw) await publishedObjectsCollection(db).deleteOne({ _id: objectId, bucket_id });
    const last = await revisionsCollection(db).findOne(
      { object_id: objectId, bucket_id },
      { sort: { created_at: -1, _id: -1 }, ...readOptions(db) },
    );
    if (!last || last.created_at.getTime() < latest.modified_at.getTime()) {
      await recordRevision(db, latest, intent?.reason ?? guessedReason(latest, last !== null), latest.modified_at);
    }
    await finishVersion(deps, latest, intent);
  }
  await clearPending(
    db,
    markers.map((m) => m._id),
  );
  return true;
}

/**
 * Repairs the Objects with a marker or carried work from before `before` (all of them by
 * default: start-up repair, when no write of this process is running). Returns how many.
 */
export async function repairPendingWrites(deps: EventDeps, before?: Date): Promise<number> {
  const marked = await pendingWritesCollection(deps.db).distinct('object_id', before ? { at: { $lt: before } } : {});
  let repaired = 0;
  for (const id of marked) if (await repairObject(deps, id)) repaired++;
  for await (const doc of carryingWork(deps.db, before)) if (await finishCarried(deps, doc)) repaired++;
  return repaired;
}
