import type { Db, ObjectId } from 'mongodb';
import { publishedObjectsCollection, type BucketDoc, type ObjectDoc, type ObjectTypeDoc } from '../db/collections.js';
import { BadRequestError } from '../errors/http-errors.js';
import { writeAlone, type BatchWrite } from '../db/write-batch.js';
import { findOneByCommand } from '../db/plain-commands.js';
import { notFound } from '../errors/not-found.js';
import { objectIdFromHex } from '../util/values.js';
import type { EventDeps } from '../events/domain-events.js';
import { viewFor, type StatusFilter } from './object-views.js';
import type { Response } from 'express';

export type { StatusFilter } from './object-views.js';

/** A malformed id cannot name any Object: it is a 404 like any unknown id, never a 500. */
export function parseObjectId(bucket: BucketDoc, id: string): ObjectId {
  const oid = objectIdFromHex(id);
  if (!oid) throw notFound('object', id, bucket.slug);
  return oid;
}

/** The Object `_id` of the Bucket `bucketId` names, as the given status sees it, or null. */
export function findObject(db: Db, bucketId: ObjectId, _id: ObjectId, status: StatusFilter): Promise<ObjectDoc | null> {
  const view = viewFor(db, status);
  return findOneByCommand(db, view.coll, { _id, bucket_id: bucketId, ...view.match }, view.readOptions);
}

/** `doc`, or the 404 of Object `id` of `bucket` when there is none. */
export function foundObject(doc: ObjectDoc | null, bucket: BucketDoc, id: string): ObjectDoc {
  if (!doc) throw notFound('object', id, bucket.slug);
  return doc;
}

/** The Object as the given status sees it: its live version, or its latest one. */
export async function getObject(db: Db, bucket: BucketDoc, id: string, status: StatusFilter): Promise<ObjectDoc> {
  return foundObject(await findObject(db, bucket._id, parseObjectId(bucket, id), status), bucket, id);
}

/**
 * The Object type a write validates by: the Bucket's types at the generation the request read
 * (every type write bumps it), kept per generation, so a write in steady state reads none.
 */
export async function typeForWrite(deps: EventDeps, bucket: BucketDoc, slug: string): Promise<ObjectTypeDoc> {
  const type = (await deps.events.types.of(deps.db, bucket)).get(slug);
  if (!type) throw new BadRequestError(`Unknown object type "${slug}" in bucket '${bucket.slug}'`, 'invalid_body');
  return type;
}

/** The stored Object without scheduling state, its create's key or a write's carried work: what a published copy or a revision keeps. */
export function contentOf(doc: ObjectDoc): ObjectDoc {
  const {
    publish_at: _p,
    unpublish_at: _u,
    schedule_claim: _c,
    idempotency_key: _k,
    idempotency_request: _r,
    pending: _w,
    ...content
  } = doc;
  return content;
}

/**
 * The write that makes `doc` the live version: the published view gets a copy without scheduling
 * state. Never over a newer version: two writes of one Object may reach it in either order; the
 * filter then misses and the upsert's insert hits the `_id`, so that duplicate key means done.
 */
export function liveWrite(db: Db, doc: ObjectDoc): BatchWrite {
  return {
    to: publishedObjectsCollection(db),
    model: {
      name: 'replaceOne',
      // Naming the Bucket sends it to one shard of a cluster sharded by Bucket.
      filter: { _id: doc._id, bucket_id: doc.bucket_id, modified_at: { $lte: doc.modified_at } },
      replacement: contentOf(doc),
      upsert: true,
    },
    doneIfDuplicate: true,
  };
}

/** Makes `doc` the live version (see `liveWrite`). */
export async function putLive(db: Db, doc: ObjectDoc): Promise<void> {
  await writeAlone(liveWrite(db, doc));
}

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
