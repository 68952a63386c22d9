import { isDeepStrictEqual } from 'node:util';
import type { Db } from 'mongodb';
import { bucketsCollection, type BucketDoc } from '../db/collections.js';
import { checkAlone, foundOrStop, type BatchWrite } from '../db/write-batch.js';

/**
 * An Object write (create, edit, delete) with the write key takes its Bucket as this process last
 * read it, instead of reading it again (lib/middleware/load-bucket.ts): one command fewer, and a
 * create waits for one round. What the write decided from it (the key, the types, the plan, the
 * webhooks) is then checked by the server, not assumed: the write's command starts with a check
 * that the Bucket is still as remembered (`bucketCheck`), and the server applies nothing after a
 * check that fails. The request is then run again with the Bucket read afresh, its key checked
 * again (a rotated key is refused as before).
 *
 * The check compares what every change of those bumps: `generation` (types, keys, plan),
 * `webhook_generation` (webhooks), and the write key itself, should anything set it without a
 * bump. A Bucket deleted meanwhile fails it too.
 */

/**
 * Marks Bucket documents handed out from memory: only they need the check. A property of the
 * copy itself (not enumerable, so never rendered or stored), not a registry beside it.
 */
const REMEMBERED = Symbol('taken from memory');

/** A copy of `doc` (as read), marked as one a write must check. */
export function rememberBucket(doc: BucketDoc): BucketDoc {
  const copy = { ...doc };
  Object.defineProperty(copy, REMEMBERED, { value: true });
  return copy;
}

export function isRemembered(doc: BucketDoc): boolean {
  return (doc as { [REMEMBERED]?: true })[REMEMBERED] === true;
}

/** What `bucketCheck` compares besides the id. `null` also finds a Bucket that never had the field. */
function checkedState(bucket: BucketDoc) {
  return {
    generation: bucket.generation,
    webhook_generation: bucket.webhook_generation ?? null,
    write_key_hash: bucket.write_key_hash,
  };
}

/** Whether two reads of a Bucket agree on everything `bucketCheck` compares. */
export function sameBucketState(a: BucketDoc, b: BucketDoc): boolean {
  return a._id.equals(b._id) && isDeepStrictEqual(checkedState(a), checkedState(b));
}

/** The check a write sends before its commit when `bucket` came from memory; undefined for a Bucket the request read. */
export function bucketCheck(db: Db, bucket: BucketDoc | undefined): BatchWrite | undefined {
  if (bucket === undefined || !isRemembered(bucket)) return undefined;
  return foundOrStop(bucketsCollection(db), { _id: bucket._id, ...checkedState(bucket) });
}

/** For a write that cannot put the check in its own command: the check, alone (PreconditionFailed when it fails). */
export async function checkRememberedBucket(db: Db, bucket: BucketDoc): Promise<void> {
  const check = bucketCheck(db, bucket);
  if (check) await checkAlone(check);
}
