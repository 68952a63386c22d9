// Reading an Object's revisions: one by id, or its list. They are written with each version
// (lib/objects/write/version-write.ts) and never changed.
import type { Db, Filter, ObjectId } from 'mongodb';
import { revisionsCollection, type BucketDoc, type RevisionDoc } from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { objectIdFromHex } from '../util/values.js';
import type { SortDirection, SortSpec } from '../query/sort.js';
import { readOptions } from '../db/service-db.js';

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
