import type { Db, ObjectId } from 'mongodb';
import type { Response } from 'express';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { objectIdFromHex } from '../util/object-id.js';
import { findObject } from './objects.js';

/**
 * The latest version of the Object a write route names, read in the same round as the request's
 * Bucket instead of after it: an edit then waits for one round fewer. The read needs the Bucket's
 * id before the Bucket is read (every Object read names it, so a cluster sharded by Bucket sends
 * it to one shard), which comes from what the last request of that slug read. It is a guess the
 * Bucket read then checks: a read for another Bucket's id is dropped unused, and the write reads
 * the Object again after its Bucket, as it does when there is no guess.
 */
interface ReadAhead {
  bucketId: ObjectId;
  id: string;
  doc: Promise<ObjectDoc | null>;
}

/** Starts the read of Object `id` (latest version) of the Bucket `bucketId` names; null for an id naming none. */
export function readObjectAhead(db: Db, bucketId: ObjectId, id: string): ReadAhead | null {
  const _id = objectIdFromHex(id);
  if (!_id) return null;
  const doc = findObject(db, bucketId, _id, 'any');
  // Awaited by the write that takes it; one left untaken (a refused request) must not reject unobserved.
  doc.catch(() => undefined);
  return { bucketId, id, doc };
}

/** Keeps `ahead` for the request's handler, if it was read for the Bucket the request turned out to name. */
export function keepReadAhead(res: Response, bucket: BucketDoc, ahead: ReadAhead | null): void {
  if (ahead?.bucketId.equals(bucket._id)) res.locals.objectReadAhead = ahead;
}

/**
 * The read of Object `id` started beside the Bucket, once: a write that retries reads the Object
 * again itself. Undefined when there is none for that Object (the route's first request of the
 * slug, another id). Only a read for the request's own Bucket is kept (`keepReadAhead`).
 */
export function takeReadAhead(res: Response, id: string): Promise<ObjectDoc | null> | undefined {
  const ahead = res.locals.objectReadAhead as ReadAhead | undefined;
  if (ahead?.id !== id) return undefined;
  delete res.locals.objectReadAhead;
  return ahead.doc;
}
