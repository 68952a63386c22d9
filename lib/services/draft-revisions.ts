import { objectsCollection, type BucketDoc, type RevisionDoc } from '../db/collections.js';
import { collectRefs } from '../serializers/metadata.js';
import { assertValid } from '../validation/ajv-messages.js';
import { prepareMetadata } from './object-metadata.js';
import type { ObjectWriteDeps } from './object-writes.js';
import { getObject, parseObjectId, typeForWrite } from './objects.js';
import { repairObject, writeVersion } from './pending-writes.js';

/**
 * POST revisions: the sent changes, applied to the latest version, become a new draft version.
 * The live version is untouched; `status=any` and preview tokens show the draft, and PATCH with
 * `status: "published"` publishes it. A draft save is an edit: it emits object.edited.
 */
export async function createDraftRevision(
  deps: ObjectWriteDeps,
  bucket: BucketDoc,
  objectId: string,
  input: unknown,
): Promise<RevisionDoc> {
  const { db, validators } = deps;
  assertValid('RevisionCreate', input, 'body');
  await repairObject(deps, parseObjectId(bucket, objectId));
  const current = await getObject(db, bucket, objectId, 'any');
  const type = await typeForWrite(db, bucket, current.type);
  const now = new Date();
  const next = { ...current, status: 'draft' as const, modified_at: now };
  if (input.title !== undefined) next.title = input.title;
  if (input.content !== undefined) next.content = input.content;
  next.metadata = await prepareMetadata(db, validators, bucket, type, input.metadata, current.metadata);
  next.refs = collectRefs(type.metafields, next.metadata);
  // Step order and why: see pending-writes.ts.
  const commit = async () => {
    await objectsCollection(db).replaceOne({ _id: current._id, bucket_id: bucket._id }, next);
    return next;
  };
  return (await writeVersion(deps, { objectId: current._id, bucketId: bucket._id, at: now, reason: 'draft', commit }))
    .revision;
}
