import { ObjectId, type Db } from 'mongodb';
import { revisionsCollection, type BucketDoc, type ObjectDoc, type RevisionDoc } from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { objectIdFromHex } from '../util/object-id.js';
import { readOptions } from './query-time-limit.js';

/** Records the version `doc` now holds. Revisions are only ever inserted, never changed. */
export async function recordRevision(
  db: Db,
  doc: ObjectDoc,
  reason: RevisionDoc['reason'],
  at: Date = new Date(),
): Promise<RevisionDoc> {
  const revision: RevisionDoc = {
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
  };
  await revisionsCollection(db).insertOne(revision);
  return revision;
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

export async function listRevisions(
  db: Db,
  bucket: BucketDoc,
  objectId: ObjectId,
  opts: { direction: 1 | -1; limit: number; skip: number },
): Promise<{ revisions: RevisionDoc[]; total: number }> {
  const filter = { object_id: objectId, bucket_id: bucket._id };
  const [revisions, total] = await Promise.all([
    revisionsCollection(db)
      .find(filter, readOptions(db))
      .sort({ created_at: opts.direction, _id: opts.direction })
      .skip(opts.skip)
      .limit(opts.limit)
      .toArray(),
    revisionsCollection(db).countDocuments(filter, readOptions(db)),
  ]);
  return { revisions, total };
}
