import { objectsCollection, type BucketDoc, type ObjectDoc } from '../../db/collections.js';
import { IDEMPOTENCY_INDEX } from '../../db/indexes.js';
import { HttpError } from '../../errors/http-errors.js';
import { isDuplicateKeyOn } from '../../errors/mongo-errors.js';
import type { EventDeps } from '../../events/domain-events.js';
import { IDEMPOTENCY_TTL_MS, keyReused } from '../../store/idempotency.js';
import { repairObject } from './repair.js';
import { readOptions } from '../../db/service-db.js';

/**
 * Crash safety of a create made with an Idempotency-Key. The key's kept answer (lib/http/
 * idempotency.ts) is a second write after the Object's own, so a crash between the two would
 * let a retry create again. The Object therefore carries the key itself, written in the same
 * insert that is the create's commit point (version-write.ts) under a unique index: a retry
 * looks for it first and answers the Object an earlier attempt wrote, whatever became of that
 * attempt's answer; two attempts racing past the look-up cannot both insert. The Object keeps
 * the request's hash too, so another request under the key is refused even without the record.
 */
export interface CreateIdempotency {
  key: string;
  /** The hash of the request (route and body) the key was sent with. */
  request: string;
  /** Told when an earlier attempt's Object answers: the answer is then a replay. */
  replayed: () => void;
}

/** The value an Object created with `key` carries: unique across Buckets by the Bucket's id. */
export function objectIdempotencyKey(bucket: BucketDoc, key: string): string {
  return `${bucket._id.toHexString()}:${key}`;
}

/**
 * The Object an earlier attempt with this key created, in step with its views, revision and
 * event (that attempt may have died before them), or null. A key older than the kept answers
 * (24 h) is forgotten here too, so it may name a new Object.
 */
export async function objectOfKey(
  deps: EventDeps,
  bucket: BucketDoc,
  key: CreateIdempotency,
): Promise<ObjectDoc | null> {
  const objects = objectsCollection(deps.db);
  const value = objectIdempotencyKey(bucket, key.key);
  const found = await objects.findOne({ idempotency_key: value }, readOptions(deps.db));
  if (!found) return null;
  if (found.created_at.getTime() <= Date.now() - IDEMPOTENCY_TTL_MS) {
    // modified_at stays: edits from a kept version never write the key (version-memo.ts).
    await objects.updateOne({ _id: found._id, idempotency_key: value }, { $unset: { idempotency_key: '' } });
    return null;
  }
  if (found.idempotency_request !== key.request) throw keyReused(key.key);
  await repairObject(deps, found._id, bucket._id);
  key.replayed();
  return (await objects.findOne({ _id: found._id, bucket_id: bucket._id }, readOptions(deps.db))) ?? found;
}

/** A create's insert that lost the key to another attempt racing past the look-up: retry to get its Object. */
export function keyRace(err: unknown, key: CreateIdempotency | undefined): HttpError | null {
  if (!key || !isDuplicateKeyOn(err, IDEMPOTENCY_INDEX)) return null;
  return new HttpError(
    409,
    `Another request with Idempotency-Key '${key.key}' created this Object meanwhile: retry it to get its answer`,
    'conflict',
    { headers: { 'Retry-After': '1' } },
  );
}
