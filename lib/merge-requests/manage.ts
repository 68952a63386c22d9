import { ObjectId, type Db } from 'mongodb';
import type { ForRequest } from '../http/respond.js';
import { objectsCollection, revisionsCollection, type BucketDoc, type RevisionDoc } from '../db/collections.js';
import { HttpError, ValidationErrors } from '../errors/http-errors.js';
import { notFound } from '../errors/not-found.js';
import type { EventDeps } from '../events/domain-events.js';
import { repairObject } from '../objects/write/repair.js';
import { readOptions } from '../db/service-db.js';
import { objectIdFromHex } from '../util/values.js';
import { assertValid } from '../validation/ajv-messages.js';
import { mergeRequestsCollection, type MergeItem, type MergeRequestDoc } from './collection.js';

export async function getMergeRequest(db: Db, bucket: BucketDoc, id: string): Promise<MergeRequestDoc> {
  const oid = objectIdFromHex(id);
  const found = oid
    ? await mergeRequestsCollection(db).findOne({ _id: oid, bucket_id: bucket._id }, readOptions(db))
    : null;
  if (!found) throw notFound('merge_request', id, bucket.slug);
  return found;
}

export async function listMergeRequests(
  db: Db,
  bucket: BucketDoc,
  page: { limit: number; skip: number },
): Promise<{ docs: MergeRequestDoc[]; total: number }> {
  const coll = mergeRequestsCollection(db);
  const filter = { bucket_id: bucket._id };
  const [docs, total] = await Promise.all([
    coll.find(filter, readOptions(db)).sort({ created_at: -1, _id: -1 }).skip(page.skip).limit(page.limit).toArray(),
    coll.countDocuments(filter, readOptions(db)),
  ]);
  return { docs, total };
}

/** The answer to a merge or close of a request that is no longer open. */
export function notOpen(doc: MergeRequestDoc): HttpError {
  const id = doc._id.toHexString();
  const why =
    doc.status === 'merging'
      ? 'is being merged right now'
      : `was already ${doc.status} at ${(doc.merged_at ?? doc.closed_at ?? doc.modified_at).toISOString()}`;
  return new HttpError(
    409,
    `Merge request '${id}' ${why}; only an open merge request can be merged or closed`,
    'merge_request_closed',
  );
}

/**
 * Records the latest version of each listed Object, which must be a draft: the request is a set
 * of unpublished changes. Every unknown id and every Object without a draft is named in one 400.
 */
export async function createMergeRequest(
  deps: EventDeps & ForRequest,
  bucket: BucketDoc,
  input: unknown,
): Promise<MergeRequestDoc> {
  const { db } = deps;
  assertValid('MergeRequestCreate', input, 'body');
  const ids = input.object_ids.map((hex) => new ObjectId(hex));
  const problems = new ValidationErrors();
  const seen = new Set<string>();
  ids.forEach((id, i) => {
    if (seen.has(id.toHexString()))
      problems.add(`body.object_ids[${i}]: '${input.object_ids[i] ?? ''}' is listed twice`);
    seen.add(id.toHexString());
  });
  problems.throwIfAny('Invalid request body', 'invalid_body');
  // Objects of other Buckets are not found here: the filter holds this Bucket's id.
  const found = await objectsCollection(db)
    .find({ _id: { $in: ids }, bucket_id: bucket._id }, readOptions(db))
    .toArray();
  const byId = new Map(found.map((d) => [d._id.toHexString(), d]));
  ids.forEach((id, i) => {
    const doc = byId.get(id.toHexString());
    if (!doc) problems.add(`body.object_ids[${i}]: no Object with id '${id.toHexString()}' in bucket '${bucket.slug}'`);
    else if (doc.status !== 'draft')
      problems.add(
        `body.object_ids[${i}]: Object '${id.toHexString()}' has no unpublished draft (its latest version is published)`,
      );
  });
  problems.throwIfAny('Invalid request body', 'invalid_body');
  const items: MergeItem[] = [];
  for (const doc of found) {
    // A crashed write may owe this version its revision: repair records it before it is looked up.
    await repairObject(deps, doc._id, bucket._id);
    const revision = await versionRevision(db, doc._id, doc.modified_at);
    items.push({ object_id: doc._id, revision_id: revision._id, version: doc.modified_at, published_at: null });
  }
  const order = new Map(ids.map((id, i) => [id.toHexString(), i]));
  items.sort((a, b) => (order.get(a.object_id.toHexString()) ?? 0) - (order.get(b.object_id.toHexString()) ?? 0));
  const now = new Date();
  const doc: MergeRequestDoc = {
    _id: new ObjectId(),
    bucket_id: bucket._id,
    title: input.title,
    status: 'open',
    items,
    created_at: now,
    modified_at: now,
    merged_at: null,
    closed_at: null,
    created_by: deps.request?.actor ?? null,
    merged_by: null,
    closed_by: null,
  };
  await mergeRequestsCollection(db).insertOne(doc);
  return doc;
}

/** The revision a version write recorded: same Object, created_at the version's modified_at. */
async function versionRevision(db: Db, objectId: ObjectId, version: Date): Promise<RevisionDoc> {
  const revision = await revisionsCollection(db).findOne(
    { object_id: objectId, created_at: version },
    { sort: { _id: -1 }, ...readOptions(db) },
  );
  if (revision) return revision;
  throw new HttpError(
    409,
    `Object '${objectId.toHexString()}' is being written right now; retry the request`,
    'conflict',
  );
}

/** Closing discards the request: nothing is published, and it can no longer be merged. */
export async function closeMergeRequest(
  db: Db,
  bucket: BucketDoc,
  id: string,
  actor: string | null,
): Promise<MergeRequestDoc> {
  const current = await getMergeRequest(db, bucket, id);
  const now = new Date();
  const closed = await mergeRequestsCollection(db).findOneAndUpdate(
    { _id: current._id, bucket_id: bucket._id, status: 'open' },
    { $set: { status: 'closed', closed_at: now, closed_by: actor, modified_at: now } },
    { returnDocument: 'after' },
  );
  if (closed) return closed;
  throw notOpen(await getMergeRequest(db, bucket, id));
}
