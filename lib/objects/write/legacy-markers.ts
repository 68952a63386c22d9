import type { Collection, Db, ObjectId } from 'mongodb';
import {
  objectsCollection,
  publishedObjectsCollection,
  revisionsCollection,
  type ObjectDoc,
  type RevisionDoc,
} from '../../db/collections.js';
import { bucketById, finishWrite, type DomainEvent, type EventDeps } from '../../events/domain-events.js';
import { putLive } from '../objects.js';
import { readOptions } from '../../db/service-db.js';
import { recordRevision } from './version-write.js';
import { eventOfReason } from './version-write.js';

/**
 * A one-time start-up migration. Older releases left crash-repair markers in `pending_writes`
 * (a delete's, carrying its event; a version write's, carrying its intent); writes now carry
 * their owed work inside the Object instead (version-write.ts, delete-write.ts) and write no
 * marker. Start-up finishes every marker left behind as the old repair did, deletes it, and drops
 * the emptied collection. This file can be deleted once every deployment has started once on a
 * release that has it (from then on no `pending_writes` collection exists anywhere).
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

interface WriteIntent {
  version: Date;
  reason: RevisionDoc['reason'];
  withdraw: boolean;
  /** Absent on markers written before events: they notified nobody. */
  notify?: boolean;
}

const LEGACY = 'pending_writes';

export function pendingWritesCollection(db: Db): Collection<PendingWriteDoc> {
  return db.collection<PendingWriteDoc>(LEGACY);
}

/** Finishes every leftover marker, then drops the collection once empty. Returns how many Objects it settled. */
export async function migrateLegacyMarkers(deps: EventDeps): Promise<number> {
  const { db } = deps;
  // Filtered here, not by the command: not every engine honours a listCollections filter.
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  if (!names.includes(LEGACY)) return 0;
  const marked = await pendingWritesCollection(db).distinct('object_id', {});
  for (const id of marked) await settleMarkers(deps, id);
  // Only once empty: a marker this start could not settle (a failure above throws first) stays for the next.
  if ((await pendingWritesCollection(db).countDocuments({})) === 0) await pendingWritesCollection(db).drop();
  return marked.length;
}

/** What a write that left no intent most likely was, read from the version it left. */
function guessedReason(latest: ObjectDoc, hasRevisions: boolean): RevisionDoc['reason'] {
  if (!hasRevisions) return 'create';
  const publishing = latest.status === 'published' && latest.published_at?.getTime() === latest.modified_at.getTime();
  return publishing ? 'publish' : 'edit';
}

/** Settles the markers of one Object as the old repair did, then deletes them. */
async function settleMarkers(deps: EventDeps, objectId: ObjectId): Promise<void> {
  const { db } = deps;
  const markers = await pendingWritesCollection(db).find({ object_id: objectId }, readOptions(db)).toArray();
  const first = markers[0];
  if (!first) return;
  const bucket_id = first.bucket_id;
  const latest = await objectsCollection(db).findOne({ _id: objectId, bucket_id }, readOptions(db));
  if (!latest) {
    // Crashed before the commit point of a create (or mid-delete): roll back to "no Object".
    await publishedObjectsCollection(db).deleteOne({ _id: objectId, bucket_id });
    await revisionsCollection(db).deleteMany({ object_id: objectId, bucket_id });
    // A delete that passed its commit point notifies as it would have (markers of creates carry no event).
    const events = markers.flatMap((m) => (m.event ? [m.event] : []));
    await finishWrite(deps, bucket_id, events.slice(0, 1));
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
    const bucket = intent?.notify ? await bucketById(db, bucket_id) : null;
    const event =
      bucket && intent
        ? [await deps.events.describe(db, bucket, { type: eventOfReason(intent.reason), doc: latest })]
        : [];
    await finishWrite(deps, bucket_id, event);
  }
  await pendingWritesCollection(db).deleteMany({ _id: { $in: markers.map((m) => m._id) } });
}
