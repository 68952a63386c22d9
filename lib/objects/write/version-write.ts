import { hash } from 'node:crypto';
import { ObjectId, type Db } from 'mongodb';
import {
  objectsCollection,
  publishedObjectsCollection,
  revisionsCollection,
  type BucketDoc,
  type CarriedWork,
  type ObjectDoc,
  type RevisionDoc,
} from '../../db/collections.js';
import { bucketById, type EventDeps, type ObjectEventType } from '../../events/domain-events.js';
import { bucketCheck, objectGenerationsWrites, writeNoteWrite } from '../../cache/bucket-generation.js';
import { readOptions } from '../../db/service-db.js';
import { liveWrite } from '../objects.js';
import {
  commitInSteps,
  CommitFailed,
  lastSent,
  writeAlone,
  writeInSteps,
  type BatchWrite,
} from '../../db/write-batch.js';
import { afterAnswer, type ForRequest } from '../../http/respond.js';
import { finishCarriedDelete } from './delete-write.js';

/**
 * Crash safety without transactions, and without a marker of its own. A version write of an
 * Object (API, scheduler, import) runs:
 *   1. write the latest version to `objects` carrying its follow-up work (`pending`: the
 *      version, its revision reason, whether it withdraws the live version, whether it
 *      notifies). One single-document write: the commit point, and the record of intent.
 *   2. the follow-ups (they do not depend on each other): the live copy (or its withdrawal), the
 *      revision (inserted by a derived id, so doing it twice records it once), the generation
 *      bump, and the event's outbox deliveries (its id is stable per version, kept once per id).
 *   3. remove `pending`, only if it is still this version's, and only once step 2 is done.
 * The generation bump goes after the other follow-ups, so no reader sees the new generation before
 * the views hold the version. Where the servers have MongoDB 8.0's bulkWrite, steps 2 and 3 are one
 * ordered command, which the server stops at its first failed write, so the answer waits for one
 * round after the commit. Every commit (a create's, an edit's, the scheduler's, an import's)
 * goes in that same command, first (`writeVersionWith`): an insert, or a write that fails, instead
 * of matching nothing, where the version it was built on is no longer the latest, so the server
 * applies none of the follow-ups after a commit that did not happen. Elsewhere the commit and each
 * write of step 2 are commands of their own (the bump after the others) and step 3 follows the
 * answer (lib/http/respond.ts).
 * A crash before 1 leaves nothing; after it, the Object itself says what is owed, so whoever
 * reads it next (the next write of the Object, a delete, the scheduler, start-up repair or the
 * stale sweep) finishes the work first (`finishCarried`) — repair comes with the read of the
 * current version. Step 3 goes last, so an acknowledged write never lacks its event.
 */

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

export interface VersionWrite {
  objectId: ObjectId;
  bucketId: ObjectId;
  /** The Bucket as the request read it, when there is one: the event renders with it. */
  bucket?: BucketDoc;
  /** The new version's modified_at, which its revision also carries. */
  at: Date;
  reason: RevisionDoc['reason'];
  /** The write takes the live version down instead of following the new version's status. */
  withdraw?: boolean;
  /** Whether the write emits its event (default true; legacy routes without trigger_webhook do not). */
  notify?: boolean;
}

export interface Written {
  doc: ObjectDoc;
  revision: RevisionDoc;
}

/**
 * Steps 1–3 for a commit that can go in the same command as its follow-ups: `commit` is an insert,
 * or a write that fails where the version it was built on is no longer the latest
 * (`writeIfFound`), so the server applies none of the follow-ups after it then. Where the servers
 * have bulkWrite (and no sink must hear of the event between the commit and the clear) the answer
 * waits for that one round. Returns null when the commit found another version (or none) in
 * place: nothing was written.
 */
export async function writeVersionWith(
  deps: EventDeps & ForRequest,
  w: VersionWrite & {
    doc: ObjectDoc;
    /** Step 1: writes the latest version with `pending` set to the work given. */
    commit: (work: CarriedWork) => BatchWrite;
    /** Turns the commit's own failure (a unique key taken) into the error the client gets. */
    commitError?: (err: unknown) => unknown;
    /** Called once the commit is known to have happened, even if a follow-up then fails. */
    committed?: () => void;
  },
): Promise<Written | null> {
  const work = carriedWork(w);
  const { event, revision, steps, clear } = await followUpWrites(deps, w.doc, work, w.bucket);
  // Sinks hear of it between the commit and the clear, which takes a command of its own.
  const toSinks = event && deps.events.hasSinks ? () => deps.events.toSinks(deps.db, event) : undefined;
  let outcome;
  try {
    outcome = await commitInSteps(deps.db, w.commit(work), steps, clear, {
      between: toSinks,
      committed: w.committed,
      // A Bucket taken from memory is checked first: the write applies only while it is as remembered.
      precondition: bucketCheck(deps.db, w.bucket),
    });
  } catch (err) {
    if (err instanceof CommitFailed) throw w.commitError ? w.commitError(err.failure) : err.failure;
    throw err;
  }
  if (!outcome.committed) return null;
  if (event && !toSinks) await deps.events.toObservers(deps.db, event);
  const { last } = outcome;
  await afterAnswer(deps.request, async () => settleClear(deps.db, w.doc, await lastSent(last)));
  return { doc: w.doc, revision };
}

function carriedWork(w: Pick<VersionWrite, 'at' | 'reason' | 'withdraw' | 'notify'>): CarriedWork {
  return {
    version: w.at,
    reason: w.reason,
    withdraw: w.withdraw ?? false,
    notify: w.notify ?? true,
    since: new Date(),
  };
}

/** The writes of steps 2 and 3 for `doc`'s version, in the order they must be applied, and its event. */
async function followUpWrites(deps: EventDeps, doc: ObjectDoc, work: CarriedWork, bucket: BucketDoc | undefined) {
  const { db } = deps;
  const event = work.notify ? await eventOf(deps, doc, work, bucket) : null;
  const { revision, write } = revisionWrite(db, doc, work.reason, work.version);
  const live = work.withdraw ? [withdrawal(db, doc)] : doc.status === 'published' ? [liveWrite(db, doc)] : [];
  const writes = [...live, write, ...(event ? await deps.events.outboxWrites(db, event) : [])];
  // The bump goes after the views it announces: a reader that sees the new generation finds the
  // new version in them, so what it keeps for that generation is never older (list orders follow
  // the writes a generation names, lib/objects/list/object-list-order.ts). The write's note goes
  // between them (in one command; apart, the bump notes it).
  const note = writeNoteWrite(db, doc.bucket_id, doc.type, doc._id);
  const bump = objectGenerationsWrites(db, doc.bucket_id, doc.type, doc._id);
  return { event, revision, steps: [writes, [note], bump], clear: clearWrite(db, doc, work.version) };
}

/**
 * Steps 2 and 3 after a commit of its own: the live copy, revision, bump and event of `doc`'s
 * version, and the clear of the work it carries, which goes after them: in the same command where
 * the servers can (one ordered bulkWrite, lib/db/write-batch.ts), else in one of its own that
 * `clear` sends.
 */
async function followUps(
  deps: EventDeps,
  doc: ObjectDoc,
  work: CarriedWork,
  bucket: BucketDoc | undefined,
): Promise<{ revision: RevisionDoc; clear: () => Promise<void> }> {
  const { event, revision, steps, clear } = await followUpWrites(deps, doc, work, bucket);
  // Sinks besides the outbox hear of it before the clear: one that fails leaves the work carried,
  // so repair hands the event (same id) to them again.
  if (event) await deps.events.toSinks(deps.db, event);
  const last = await writeInSteps(deps.db, steps, clear);
  return {
    revision,
    clear: async () => settleClear(deps.db, doc, await lastSent(last)),
  };
}

/** The event of `doc`'s version, rendered with the Bucket the request read (else read now). */
async function eventOf(deps: EventDeps, doc: ObjectDoc, work: CarriedWork, bucket: BucketDoc | undefined) {
  const owner = bucket ?? (await bucketById(deps.db, doc.bucket_id));
  return owner ? deps.events.describe(deps.db, owner, { type: eventOfReason(work.reason), doc }) : null;
}

function withdrawal(db: Db, { _id, bucket_id }: ObjectDoc): BatchWrite {
  return { to: publishedObjectsCollection(db), model: { name: 'deleteOne', filter: { _id, bucket_id } } };
}

/** Step 3: removes `pending`, only if it is still this version's. Each write names the Bucket (one shard). */
function clearWrite(db: Db, { _id, bucket_id }: Pick<ObjectDoc, '_id' | 'bucket_id'>, version: Date): BatchWrite {
  return {
    to: objectsCollection(db),
    model: {
      name: 'updateOne',
      filter: { _id, bucket_id, 'pending.version': version },
      update: { $unset: { pending: '' } },
    },
  };
}

/**
 * After step 3. It misses when a later write (or a repair) already replaced or cleared the work,
 * or when a delete removed the Object meanwhile: a delete removes the Object first and its live
 * copy and revisions after, so what step 2 put down after that sweep is removed here.
 */
async function settleClear(db: Db, { _id, bucket_id }: Pick<ObjectDoc, '_id' | 'bucket_id'>, cleared: number) {
  if (cleared > 0) return;
  if (await objectsCollection(db).findOne({ _id, bucket_id }, { projection: { _id: 1 }, ...readOptions(db) })) return;
  await publishedObjectsCollection(db).deleteOne({ _id, bucket_id });
  await revisionsCollection(db).deleteMany({ object_id: _id, bucket_id });
}

/**
 * Finishes the work `doc` carries (steps 2–3 again), as the write that left it would have; a no-op
 * for an Object that carries none. Returns whether there was any. Only the latest version carries
 * work, and its live copy never goes over a newer one, so running it beside that write is harmless.
 */
export async function finishCarried(deps: EventDeps, doc: ObjectDoc): Promise<boolean> {
  const work = doc.pending;
  if (!work) return false;
  if ('deletes' in work) {
    await finishCarriedDelete(deps, { ...doc, pending: work });
    return true;
  }
  const { pending: _carried, ...version } = doc;
  // Work carried over by a write that copied the document whole belongs to a version gone since.
  if (work.version.getTime() === doc.modified_at.getTime())
    await (await followUps(deps, version, work, undefined)).clear();
  else await settleClear(deps.db, doc, await writeAlone(clearWrite(deps.db, doc, work.version)));
  return true;
}

/** The Objects whose carried work began before `before` (all of it: now), oldest first, by the sparse index. */
export function carryingWork(db: Db, before = new Date()) {
  return objectsCollection(db).find({ 'pending.since': { $lt: before } }, readOptions(db));
}

/** The revision of the version `doc` now holds. */
function revisionOf(doc: ObjectDoc, reason: RevisionDoc['reason'], at: Date): RevisionDoc {
  return {
    _id: new ObjectId(),
    bucket_id: doc.bucket_id,
    object_id: doc._id,
    type: doc.type,
    slug: doc.slug,
    title: doc.title,
    content: doc.content,
    metadata: doc.metadata,
    status: doc.status,
    created_at: at,
    created_by: doc.modified_by,
    reason,
    ...(doc.own_metafields && { own_metafields: doc.own_metafields }),
  };
}

/** Records the version `doc` now holds. Revisions are only ever inserted, never changed. */
export async function recordRevision(
  db: Db,
  doc: ObjectDoc,
  reason: RevisionDoc['reason'],
  at: Date = new Date(),
): Promise<RevisionDoc> {
  const revision = revisionOf(doc, reason, at);
  await revisionsCollection(db).insertOne(revision);
  return revision;
}

/**
 * The id of the revision of `objectId`'s version at `at`: the version's time (in seconds, as any
 * ObjectId starts) and a hash of the Object and the version's time in milliseconds. Derived,
 * not drawn, so the revision is recorded once however often it is inserted.
 */
export function revisionIdOf(objectId: ObjectId, at: Date): ObjectId {
  const bytes = Buffer.alloc(12);
  bytes.writeUInt32BE(Math.floor(at.getTime() / 1000) >>> 0, 0);
  // The one-shot hash: a Hash object per edit costs more than the digest.
  hash('sha1', `${objectId.toHexString()}:${String(at.getTime())}`, 'buffer').copy(bytes, 4, 0, 8);
  return new ObjectId(bytes);
}

/**
 * The revision of the version `doc` holds (created at `at`, its modified_at), and the write that
 * records it unless it is there already: a version write and a repair finishing its work may both
 * send it. One insert by a derived `_id`, which the unique `_id` index keeps once.
 */
export function revisionWrite(
  db: Db,
  doc: ObjectDoc,
  reason: RevisionDoc['reason'],
  at: Date,
): { revision: RevisionDoc; write: BatchWrite } {
  const revision = { ...revisionOf(doc, reason, at), _id: revisionIdOf(doc._id, at) };
  return {
    revision,
    write: { to: revisionsCollection(db), model: { name: 'insertOne', document: revision }, doneIfDuplicate: true },
  };
}
