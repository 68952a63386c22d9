import { objectsCollection, type BucketDoc, type ObjectDoc } from '../../db/collections.js';
import { ensureUsage } from '../../limits/usage-counters.js';
import type { EventDeps } from '../../events/domain-events.js';
import { findObject, foundObject, parseObjectId } from '../objects.js';
import { readOptions } from '../../db/service-db.js';
import { deleteClaim, deleteClaimed, finishCarriedDeletes } from './delete-write.js';
import { finishCarried } from './version-write.js';
import { HttpError } from '../../errors/http-errors.js';
import type { VersionGuard } from '../../http/if-match.js';
import type { VersionMemoDeps } from './version-memo.js';

/** Objects a type delete removes per round: bounds memory and the size of each command. */
const PAGE = 500;

/**
 * Deletes a page of a type's Objects (latest versions as read) the way a single delete goes
 * (delete-write.ts): all their claims (each a commit point, putting `pending.deletes` on its
 * Object) in one unordered command, then each claimed Object finished as repair would,
 * all at once (`finishCarriedDeletes`: live copies, revisions, events, the Objects, bumps, counts).
 * A crash in between leaves claimed Objects, which the next page read, the stale sweep or
 * start-up repair finishes. An Object a write changed after the read misses its claim and is
 * read again with the next page.
 */
async function deletePage(deps: EventDeps, bucket: BucketDoc, docs: ObjectDoc[], notify: boolean): Promise<void> {
  const { db } = deps;
  await objectsCollection(db).bulkWrite(
    docs.map((doc) => {
      const { _id, bucket_id, modified_at, pending } = deleteClaim(db, doc, notify).claimed;
      // The same conditions as a single delete's claim, as a plain update: one that misses skips.
      const filter = { _id, bucket_id, modified_at: doc.modified_at, 'pending.deletes': { $exists: false } };
      return { updateOne: { filter, update: { $set: { modified_at, pending } } } };
    }),
    { ordered: false },
  );
  await ensureUsage(db, bucket._id);
  // Read back: the claims that held, and other deletes' claims on the page, finished alike.
  const claimed = await objectsCollection(db)
    .find({ _id: { $in: docs.map((d) => d._id) }, bucket_id: bucket._id, 'pending.deletes': true }, readOptions(db))
    .toArray();
  const owed = claimed.flatMap((doc) =>
    doc.pending && 'deletes' in doc.pending ? [{ ...doc, pending: doc.pending }] : [],
  );
  await finishCarriedDeletes(deps, owed, bucket);
}

/** Claims before giving up with 409: each retry means another write of the Object just landed. */
const DELETE_ATTEMPTS = 8;

/**
 * DELETE of one Object (route, batch). `notify`: the request's trigger_webhook. The Object
 * carries its delete and goes last, all in one command where the servers can (delete-write.ts;
 * with event sinks besides the outbox, which hear of it between the claim and the rest, in two).
 */
export async function removeObject(
  deps: EventDeps & VersionMemoDeps,
  bucket: BucketDoc,
  id: string,
  notify: boolean,
  guard?: VersionGuard,
): Promise<void> {
  const objectId = parseObjectId(bucket, id);
  // Its version kept for edits (version-memo.ts) is of no more use; an edit racing this delete reads.
  deps.versions?.forget(bucket._id, objectId);
  for (let attempt = 1; ; attempt++) {
    // Gone meanwhile (another delete won the race): answered like any delete of an unknown id.
    const doc = foundObject(await findObject(deps.db, bucket._id, objectId, 'any'), bucket, id);
    // Work a write left (running, or dead) is finished first, with its own event, as an edit
    // does: another delete's claim is finished, and this one then answers 404.
    if (await finishCarried(deps, doc)) continue;
    // The claim below is conditional on this version, so a newer one landing after the check misses it.
    if (guard && !guard.accepts(doc)) throw guard.otherwise(doc);
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
 * same claim as a single delete. `beforePage` lets the caller check it still holds its lease.
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
    await deletePage(deps, bucket, page, notify);
  }
}
