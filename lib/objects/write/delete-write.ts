import type { Db } from 'mongodb';
import {
  objectsCollection,
  publishedObjectsCollection,
  revisionsCollection,
  type BucketDoc,
  type CarriedDelete,
  type ObjectDoc,
} from '../../db/collections.js';
import { bucketById, type EventDeps } from '../../events/domain-events.js';
import { bucketCheck, objectGenerationsWrites, writeNoteWrite } from '../../cache/bucket-generation.js';
import {
  CommitFailed,
  commitInSteps,
  lastSent,
  writeIfFound,
  writeInSteps,
  type BatchWrite,
} from '../../db/write-batch.js';
import { objectRemovalWrite } from '../../limits/usage-counters.js';
import { nextVersionTime } from '../../http/if-match.js';

/**
 * The delete of one Object, crash-safe without transactions, like a
 * version write (version-write.ts) but with the Object removed last:
 *   1. the claim (the commit point): one write over the version read that puts down a version
 *      of the delete's own (modified_at moves on, so an edit that read the Object before misses
 *      it and reads again) carrying the delete (`pending.deletes`). It fails, writing nothing,
 *      where another version or none is in place.
 *   2. the live copy and the revisions go, the event's outbox deliveries are queued, then the
 *      Object itself goes;
 *   3. the type's write note and generation bump, after the Object is gone, so no reader keeps a
 *      read of it for the new generation; a kept list order follows the delete (the Object is
 *      missing when the written ids are read again) instead of every memo of the Bucket being
 *      dropped;
 *   4. the plan's count of Objects, last, once per Object however often it is sent.
 * Where the servers have bulkWrite all of it is one ordered command. A crash after 1 and before
 * the Object goes leaves it carrying the delete: whoever reads it next (a write of it, the stale
 * sweep, start-up repair) finishes the delete (`finishCarriedDelete`), its event rendered from
 * the Object, so with the same id. A crash after the Object went and before 3 leaves kept reads
 * of its type as they were until the type's next write (a kept list order reads a page whose
 * Object is missing again from its filter); one before 4 leaves the count one too high. A
 * type delete claims a page of its Objects at once and finishes each claim the same way
 * (object-delete.ts).
 */

/** The claim of `doc` (as read) for a delete, and the version it puts down; the claim fails where `doc` is no longer the latest. */
export function deleteClaim(
  db: Db,
  doc: ObjectDoc,
  notify: boolean,
): { claim: BatchWrite; claimed: ObjectDoc & { pending: CarriedDelete } } {
  const version = nextVersionTime(doc);
  const work: CarriedDelete = { deletes: true, version, notify, since: new Date() };
  const { _id, bucket_id } = doc;
  const claim = writeIfFound(
    objectsCollection(db),
    // Not over another delete's claim: that delete is finished instead (object-delete.ts).
    { _id, bucket_id, modified_at: doc.modified_at, 'pending.deletes': { $exists: false } },
    { $set: { modified_at: version, pending: work } },
  );
  return { claim, claimed: { ...doc, modified_at: version, pending: work } };
}

/** Sends the claim of `doc` and the delete's other writes; false when the claim found another version (or none) in place. */
export async function deleteClaimed(deps: EventDeps, bucket: BucketDoc, doc: ObjectDoc, notify: boolean) {
  const { claim, claimed } = deleteClaim(deps.db, doc, notify);
  const { event, views, gone, after, counted } = await deleteWrites(deps, bucket, claimed);
  // Sinks besides the outbox hear of it after the claim and before the Object goes; that takes
  // the claim a command of its own. A sink that fails leaves the delete carried, for repair.
  const toSinks = event && deps.events.hasSinks ? () => deps.events.toSinks(deps.db, event) : undefined;
  let outcome;
  try {
    outcome = await commitInSteps(deps.db, claim, [views, [gone], ...after], counted, {
      between: toSinks,
      precondition: bucketCheck(deps.db, bucket),
    });
  } catch (err) {
    throw err instanceof CommitFailed ? err.failure : err;
  }
  if (!outcome.committed) return false;
  await lastSent(outcome.last);
  if (event && !toSinks) await deps.events.toObservers(deps.db, event);
  return true;
}

/**
 * Finishes the deletes `docs` carry (steps 2–4 again), as the deletes that left them would have (a
 * type delete finishes the page it claimed so, with its `bucket` as read). The page's writes go
 * step by step for all of its Objects at once, so a page costs a few commands, not a few per
 * Object. Sent twice (by the delete still running and a reader that found its claim), the deletes
 * find nothing, the outbox keeps one delivery per event id, each count is taken once, and the
 * notes and bumps only make readers read again.
 */
export async function finishCarriedDeletes(
  deps: EventDeps,
  docs: readonly (ObjectDoc & { pending: CarriedDelete })[],
  bucket?: BucketDoc,
): Promise<void> {
  const each = await Promise.all(docs.map((doc) => deleteWrites(deps, bucket, doc)));
  const lastCount = each.at(-1)?.counted;
  if (!lastCount) return;
  // Sinks hear of them before the Objects go, so one that fails leaves its delete carried.
  for (const { event } of each) if (event) await deps.events.toSinks(deps.db, event);
  const afterSteps = Math.max(...each.map((w) => w.after.length));
  const steps = [
    each.flatMap((w) => w.views),
    each.map((w) => w.gone),
    ...Array.from({ length: afterSteps }, (_, step) => each.flatMap((w) => w.after[step] ?? [])),
    each.slice(0, -1).map((w) => w.counted),
  ];
  await lastSent(await writeInSteps(deps.db, steps, lastCount));
}

/** Finishes the delete `doc` carries: a page of one. */
export function finishCarriedDelete(deps: EventDeps, doc: ObjectDoc & { pending: CarriedDelete }): Promise<void> {
  return finishCarriedDeletes(deps, [doc]);
}

/** The writes of steps 2–4 for `doc` (claimed, carrying its delete), and its event when it notifies. */
async function deleteWrites(
  deps: EventDeps,
  bucket: BucketDoc | undefined,
  doc: ObjectDoc & { pending: CarriedDelete },
) {
  const { db } = deps;
  const { _id, bucket_id } = doc;
  const owner = doc.pending.notify ? (bucket ?? (await bucketById(db, bucket_id))) : null;
  const { pending: _work, ...version } = doc;
  const event = owner ? await deps.events.describe(db, owner, { type: 'object.deleted', doc: version }) : null;
  const views: BatchWrite[] = [
    { to: publishedObjectsCollection(db), model: { name: 'deleteOne', filter: { _id, bucket_id } } },
    { to: revisionsCollection(db), model: { name: 'deleteMany', filter: { object_id: _id, bucket_id } } },
    ...(event ? await deps.events.outboxWrites(db, event) : []),
  ];
  const gone: BatchWrite = {
    to: objectsCollection(db),
    model: { name: 'deleteOne', filter: { _id, bucket_id, 'pending.version': doc.pending.version } },
  };
  const after = [[writeNoteWrite(db, bucket_id, doc.type, _id)], objectGenerationsWrites(db, bucket_id, doc.type, _id)];
  return { event, views, gone, after, counted: objectRemovalWrite(db, bucket_id, _id) };
}
