import { isDeepStrictEqual } from 'node:util';
import type { ObjectId } from 'mongodb';
import type { ForRequest } from '../../http/respond.js';
import { isDraftOnly } from '../../accounts/draft-only.js';
import {
  objectsCollection,
  type BucketDoc,
  type CarriedWork,
  type ObjectDoc,
  type RevisionDoc,
} from '../../db/collections.js';
import { HttpError } from '../../errors/http-errors.js';
import type { EventDeps } from '../../events/domain-events.js';
import { foundObject, getObject, parseObjectId } from '../objects.js';
import { finishCarried, writeVersionWith, type Written } from './version-write.js';
import { writeIfFound } from '../../db/write-batch.js';
import { nextVersionTime } from '../../http/if-match.js';
import { readOptions } from '../../db/service-db.js';
import type { VersionMemoDeps } from './version-memo.js';

/**
 * Edits of an existing Object are read-merge-write: a PATCH changes only the keys it sends, so it
 * starts from the version it read. Two edits of one Object at once would otherwise each write
 * their merge over the same version, and the later would silently drop the earlier's change. So
 * the write is conditional on the version read (its modified_at, which every version write moves
 * strictly forward), and an edit that finds another version in place merges again from it.
 */

/** Merges before giving up with 409: each retry means another write of the Object just landed. */
export const EDIT_ATTEMPTS = 8;

/** What one attempt writes, built from the version it read. */
export interface EditPlan {
  next: ObjectDoc;
  reason: RevisionDoc['reason'];
  /** Turns a failed replace (a unique key taken) into the error the client gets. */
  commitError?: (err: unknown) => unknown;
}

export interface EditOptions {
  notify?: boolean;
  /** The latest version, already being read (lib/objects/objects.ts): the first attempt merges into it. */
  current?: Promise<ObjectDoc | null>;
}

function typeMovedMeanwhile(current: ObjectDoc): HttpError {
  return new HttpError(
    409,
    `The Object's type '${current.type}' was renamed or removed while this write ran; nothing was changed, retry the request`,
    'conflict',
  );
}

function tooContended(id: ObjectId): HttpError {
  return new HttpError(
    409,
    `Object ${id.toHexString()} was changed by other writes ${EDIT_ATTEMPTS} times while this write merged its changes; nothing was changed, retry the request`,
    'conflict',
  );
}

/** A short random wait that grows with the attempts, so writers racing for one Object spread out. */
function backoff(attempt: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
}

/**
 * The update that turns `current` (as read) into `next` carrying `work`: what a replace would write,
 * though only the fields that changed. The commit is conditional on `current` being the version in
 * place, so a field equal to it there already holds its value; leaving it out keeps the command
 * small (an edit of one Metafield does not send the Object's content again) and never writes back
 * a field some other writer moved meanwhile without a new version (a schedule claim, say).
 */
export function versionUpdate(
  current: ObjectDoc,
  next: ObjectDoc,
  work: CarriedWork,
): { $set: Partial<ObjectDoc>; $unset?: Record<string, ''> } {
  const was = current as unknown as Record<string, unknown>;
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (key !== '_id' && !isDeepStrictEqual(was[key], value)) changed[key] = value;
  }
  // pending is set, never removed: both at once would be a conflict the server refuses.
  const gone = Object.keys(current).filter((key) => key !== '_id' && key !== 'pending' && !(key in next));
  return {
    $set: { ...changed, pending: work },
    ...(gone.length > 0 && { $unset: Object.fromEntries(gone.map((k) => [k, ''])) }),
  };
}

/**
 * Reads the latest version, lets `build` merge into it, and writes the merge only over that
 * version. The version this process last wrote (lib/objects/write/version-memo.ts) stands in for
 * the first read: the commit checks it as it checks a read, and where it was behind (another
 * process wrote, or a writer it does not know of left carried work), the edit reads and merges
 * again without that counting as a lost race. So does a `build` that refused it (an If-Match
 * naming a newer version, say): a refusal is judged on a version read.
 */
export async function editObject(
  deps: EventDeps & VersionMemoDeps & ForRequest,
  bucket: BucketDoc,
  id: string,
  build: (current: ObjectDoc, at: Date) => Promise<EditPlan>,
  { notify, current: readAhead }: EditOptions = {},
): Promise<Written> {
  const objectId = parseObjectId(bucket, id);
  const objects = objectsCollection(deps.db);
  const memo = deps.versions;
  let kept = memo?.latest(bucket, objectId);
  // Started before the memo was known to answer, it may predate the write that made the memo behind.
  let ahead = kept === undefined ? readAhead : undefined;
  for (let attempt = 1; ;) {
    const fromMemo = kept !== undefined;
    const current =
      kept ?? (ahead ? foundObject(await ahead, bucket, id) : await getObject(deps.db, bucket, id, 'any'));
    kept = undefined;
    ahead = undefined;
    // A write that died (or is still running) left work this version owes: it is done before this
    // write records its own, so the version gets its live copy, revision and event first.
    if (await finishCarried(deps, current)) {
      attempt++;
      continue;
    }
    const at = nextVersionTime(current);
    const plan = await (fromMemo ? build(current, at).catch(() => null) : build(current, at));
    if (plan === null) {
      memo?.forget(bucket._id, objectId);
      continue;
    }
    const actor = deps.request?.actor ?? null;
    // A write made with a Bucket key (or by the service) leaves the last account's name in place.
    if (actor !== null) plan.next.modified_by = actor;
    if (plan.next.publish_at && actor !== null && (await isDraftOnly(deps.db, bucket._id, actor))) {
      // A scheduled publish puts the latest version live at its time. A draft-only account may
      // save drafts but not decide what goes live, so its edit of a scheduled Object cancels the
      // schedule (its answer shows publish_at gone) instead of riding it: a publisher reschedules
      // what they approve. Publishing the version the schedule was set on instead would need it
      // kept whole beside the newer draft: an Object holds one latest and one live version, and
      // revisions lack its thumbnail, order and locale.
      plan.next.publish_at = null;
    }
    // Conditional on the type as well: a rename that moved the Object meanwhile must not be undone.
    // Over a remembered version, also on no work being carried: such work is owed first (a read finishes it).
    const filter = {
      _id: current._id,
      bucket_id: bucket._id,
      type: current.type,
      modified_at: current.modified_at,
      ...(fromMemo && { pending: { $exists: false } }),
    };
    const commit = (work: CarriedWork) => writeIfFound(objects, filter, versionUpdate(current, plan.next, work));
    const written = await writeVersionWith(deps, {
      objectId,
      bucketId: bucket._id,
      bucket,
      at,
      reason: plan.reason,
      doc: plan.next,
      commit,
      ...(plan.commitError && { commitError: plan.commitError }),
      ...(notify !== undefined && { notify }),
    });
    if (written) {
      memo?.remember(bucket, written.doc);
      return written;
    }
    if (fromMemo) {
      memo?.forget(bucket._id, objectId);
      continue;
    }
    const now = await objects.findOne({ _id: objectId, bucket_id: bucket._id }, readOptions(deps.db));
    if (now && now.type !== current.type) throw typeMovedMeanwhile(current);
    if (attempt >= EDIT_ATTEMPTS) throw tooContended(objectId);
    await backoff(attempt);
    attempt++;
  }
}
