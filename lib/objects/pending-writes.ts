import type { Collection, Db, ObjectId } from 'mongodb';
import {
  objectsCollection,
  publishedObjectsCollection,
  revisionsCollection,
  type ObjectDoc,
  type RevisionDoc,
} from '../db/collections.js';
import {
  bucketById,
  finishWrite,
  type DomainEvent,
  type EventDeps,
  type ObjectEventType,
} from '../events/domain-events.js';
import { putLive } from './objects.js';
import { readOptions } from '../db/query-time-limit.js';
import { recordRevision } from '../revisions/revisions.js';

/**
 * Crash safety without transactions. A write of an Object (through the API or the publish_at /
 * unpublish_at scheduler) runs these steps, in this order (`writeVersion` below runs 1–7):
 *   0. repair the Object if it already has a marker (`repairObject`), so an earlier crashed write
 *      gets its live copy, revision and event before this write records its own
 *   1. insert a pending-write marker {object_id, bucket_id, at, intent}; the intent names the
 *      version being written (its modified_at), its revision reason, whether it withdraws
 *      the live version and whether it notifies, so repair can redo exactly what the interrupted
 *      write would have done
 *   2. write the latest version to `objects` (a single-document write: it happened or it did not)
 *   3. copy it to `published_objects` when it is published, or delete the live copy when the
 *      write withdraws it (a scheduled unpublish); a draft save leaves the live copy as it was
 *   4. insert its revision (created_at = the version's modified_at)
 *   5. bump the Bucket generation
 *   6. emit its domain event (the reason names it: `eventOfReason`) to the app's sinks
 *   7. delete the marker
 * Step 2 is the commit point. A crash before it leaves "nothing happened" (the marker alone); after
 * it, the latest version is the record of intent and steps 3–6 are idempotent to redo from it:
 * repair re-copies a published latest version to the live view (or withdraws it when the marker's
 * version is the latest and says so), records the missing revision, bumps the generation so
 * caches drop reads taken while the views were out of step, and emits the write's event again
 * (same event id, so a sink that already has it keeps one). The marker goes last, so a write that
 * was acknowledged, or that crashed after its commit point, never lacks its event.
 * Deletes (object-delete.ts) put the event, rendered before the Object goes, into the marker
 * itself, as nothing is left afterwards to render it from. A scheduler's claim on an Object is
 * not a version (it changes no content), so it runs before step 0 and needs no marker.
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

/** The event a version write stands for. */
export function eventOfReason(reason: RevisionDoc['reason']): ObjectEventType {
  switch (reason) {
    case 'create':
      return 'object.created';
    case 'edit':
    case 'draft':
      return 'object.edited';
    case 'publish':
    case 'scheduled-publish':
      return 'object.published';
    case 'scheduled-unpublish':
      return 'object.unpublished';
  }
}

/** Steps 5–6 of a version write (and of its repair): its bump and, when it notifies, its event. */
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

export interface VersionWrite<D extends ObjectDoc | null> {
  objectId: ObjectId;
  bucketId: ObjectId;
  /** The new version's modified_at, which its revision also carries. */
  at: Date;
  reason: RevisionDoc['reason'];
  /** The write takes the live version down instead of following the new version's status. */
  withdraw?: boolean;
  /** Whether the write emits its event (default true; legacy routes without trigger_webhook do not). */
  notify?: boolean;
  /** Step 2: writes the latest version and returns it, or null when it wrote nothing. */
  commit: () => Promise<D>;
}

export interface Written {
  doc: ObjectDoc;
  revision: RevisionDoc;
}

/** Runs steps 1–7 around `commit`. If commit throws, the marker stays for repair to settle. */
export async function writeVersion(deps: EventDeps, w: VersionWrite<ObjectDoc>): Promise<Written>;
/** A commit that wrote nothing (null) drops its own marker and changes nothing else. */
export async function writeVersion(deps: EventDeps, w: VersionWrite<ObjectDoc | null>): Promise<Written | null>;
export async function writeVersion(deps: EventDeps, w: VersionWrite<ObjectDoc | null>): Promise<Written | null> {
  const { db } = deps;
  const intent: WriteIntent = {
    version: w.at,
    reason: w.reason,
    withdraw: w.withdraw ?? false,
    notify: w.notify ?? true,
  };
  const markerId = await markPending(db, w.objectId, w.bucketId, { intent });
  const doc = await w.commit();
  if (!doc) {
    await clearPending(db, [markerId]);
    return null;
  }
  if (intent.withdraw) await publishedObjectsCollection(db).deleteOne({ _id: doc._id });
  else if (doc.status === 'published') await putLive(db, doc);
  const revision = await recordRevision(db, doc, w.reason, w.at);
  await sweepIfDeleted(db, doc._id);
  await finishVersion(deps, doc, intent);
  await clearPending(db, [markerId]);
  return { doc, revision };
}

/**
 * A delete of the Object may have run since step 2. It removes the Object first and its live copy
 * and revisions after, so a live copy or revision this write put down after that sweep is left
 * behind unless removed here; what landed before the sweep, the delete itself removes.
 */
async function sweepIfDeleted(db: Db, objectId: ObjectId): Promise<void> {
  if (await objectsCollection(db).findOne({ _id: objectId }, { projection: { _id: 1 }, ...readOptions(db) })) return;
  await publishedObjectsCollection(db).deleteOne({ _id: objectId });
  await revisionsCollection(db).deleteMany({ object_id: objectId });
}

/** What a write that left no intent most likely was, read from the version it left. */
function guessedReason(latest: ObjectDoc, hasRevisions: boolean): RevisionDoc['reason'] {
  if (!hasRevisions) return 'create';
  const publishing = latest.status === 'published' && latest.published_at?.getTime() === latest.modified_at.getTime();
  return publishing ? 'publish' : 'edit';
}

/**
 * Brings one Object's views, revisions and events in line with its latest version; a no-op without
 * a marker.
 */
export async function repairObject(deps: EventDeps, objectId: ObjectId): Promise<boolean> {
  const { db } = deps;
  const markers = await pendingWritesCollection(db).find({ object_id: objectId }, readOptions(db)).toArray();
  const first = markers[0];
  if (!first) return false;
  const latest = await objectsCollection(db).findOne({ _id: objectId }, readOptions(db));
  if (!latest) {
    // Crashed before the commit point of a create (or mid-delete): roll back to "no Object".
    await publishedObjectsCollection(db).deleteOne({ _id: objectId });
    await revisionsCollection(db).deleteMany({ object_id: objectId });
    // A delete that passed its commit point notifies as it would have (markers of creates carry no event).
    const events = markers.flatMap((m) => (m.event ? [m.event] : []));
    await finishWrite(deps, first.bucket_id, events.slice(0, 1));
  } else {
    // Only the write whose version is the latest passed its commit point; others changed nothing.
    const intent = markers.find((m) => m.intent?.version.getTime() === latest.modified_at.getTime())?.intent;
    if (latest.status === 'published') await putLive(db, latest);
    else if (intent?.withdraw) await publishedObjectsCollection(db).deleteOne({ _id: objectId });
    const last = await revisionsCollection(db).findOne(
      { object_id: objectId },
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

/** Start-up repair: only Objects with a marker can be out of step. Returns how many were repaired. */
export async function repairPendingWrites(deps: EventDeps): Promise<number> {
  const ids = await pendingWritesCollection(deps.db).distinct('object_id');
  let repaired = 0;
  for (const id of ids) if (await repairObject(deps, id)) repaired++;
  return repaired;
}
