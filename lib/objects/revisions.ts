import { hash } from 'node:crypto';
import { ObjectId, type Db, type Filter } from 'mongodb';
import type { BatchWrite } from '../db/write-batch.js';
import { revisionsCollection, type BucketDoc, type ObjectDoc, type RevisionDoc } from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { objectIdFromHex } from '../util/values.js';
import type { SortDirection, SortSpec } from '../query/sort.js';
import { readOptions } from '../db/service-db.js';

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

export async function getRevision(
  db: Db,
  bucket: BucketDoc,
  objectId: ObjectId,
  revisionId: string,
): Promise<RevisionDoc> {
  const id = objectIdFromHex(revisionId);
  const found = id
    ? await revisionsCollection(db).findOne({ _id: id, object_id: objectId, bucket_id: bucket._id }, readOptions(db))
    : null;
  if (!found) throw notFound('revision', revisionId, bucket.slug, objectId.toHexString());
  return found;
}

/**
 * What a revisions list asks the database, built without it: one Object's history by creation,
 * `_id` breaking ties. The index-contract unit test holds it to REVISION_LIST_INDEX (lib/db/indexes.ts).
 */
export function revisionListQuery(
  bucketId: ObjectId,
  objectId: ObjectId,
  direction: SortDirection,
): { filter: Filter<RevisionDoc>; sort: Extract<SortSpec, { random: false }>['fields'] } {
  return {
    filter: { object_id: objectId, bucket_id: bucketId },
    sort: [
      ['created_at', direction],
      ['_id', direction],
    ],
  };
}

export async function listRevisions(
  db: Db,
  bucket: BucketDoc,
  objectId: ObjectId,
  opts: { direction: SortDirection; limit: number; skip: number },
): Promise<{ revisions: RevisionDoc[]; total: number }> {
  const { filter, sort } = revisionListQuery(bucket._id, objectId, opts.direction);
  const [revisions, total] = await Promise.all([
    revisionsCollection(db).find(filter, readOptions(db)).sort(sort).skip(opts.skip).limit(opts.limit).toArray(),
    revisionsCollection(db).countDocuments(filter, readOptions(db)),
  ]);
  return { revisions, total };
}
