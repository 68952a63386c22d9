import { ObjectId, type Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { mediaCollection, type MediaDoc } from '../store/media.js';
import { BadRequestError } from '../errors/http-errors.js';
import { notFound } from '../errors/not-found.js';
import { countRemoval, ensureUsage, reserve } from '../limits/usage-counters.js';
import { removeOriginal, removeVariantsOf } from '../store/files.js';
import type { StoredUpload } from './gridfs-storage.js';
import { metadataProblems, type UploadFields } from './upload-fields.js';
import { originalNameProblems } from './media-name.js';
import { assertFolderExists } from './folder-reads.js';
import { assertValid } from '../validation/ajv-messages.js';
import { finishChange, type EventDeps } from '../events/domain-events.js';
import { objectIdFromHex } from '../util/values.js';
import { readOptions } from '../db/service-db.js';

/** A malformed id names no media item: 404 like any unknown id. */
function mediaId(bucket: BucketDoc, id: string): ObjectId {
  const oid = objectIdFromHex(id);
  if (!oid) throw notFound('media', id, bucket.slug);
  return oid;
}

/** When an item was made and last changed: now for an upload, the source's times for an import. */
export interface MediaTimes {
  created_at: Date;
  modified_at: Date;
}

/** Records an upload whose bytes are already stored. The caller removes the file if this throws. */
export async function createMedia(
  deps: EventDeps,
  bucket: BucketDoc,
  stored: StoredUpload,
  fields: UploadFields,
  times?: MediaTimes,
): Promise<MediaDoc> {
  const now = new Date();
  const doc: MediaDoc = {
    _id: new ObjectId(),
    bucket_id: bucket._id,
    name: stored.name,
    original_name: stored.original_name,
    size: stored.size,
    type: stored.type,
    folder: fields.folder,
    alt_text: fields.alt_text,
    metadata: fields.metadata,
    width: stored.width,
    height: stored.height,
    file_id: stored.file_id,
    created_at: times?.created_at ?? now,
    modified_at: times?.modified_at ?? now,
  };
  const slot = await reserve(deps.db, bucket, deps.plans, 'media_bytes', stored.size);
  try {
    await mediaCollection(deps.db).insertOne(doc);
    slot.keep();
  } finally {
    await slot.settle();
  }
  await finishChange(deps, bucket, { type: 'media.created', doc });
  return doc;
}

export async function getMedia(db: Db, bucket: BucketDoc, id: string): Promise<MediaDoc> {
  const doc = await mediaCollection(db).findOne({ _id: mediaId(bucket, id), bucket_id: bucket._id }, readOptions(db));
  if (!doc) throw notFound('media', id, bucket.slug);
  return doc;
}

/** The media item a file URL names, or null. */
export function findMediaByName(db: Db, bucket: BucketDoc, name: string): Promise<MediaDoc | null> {
  return mediaCollection(db).findOne({ bucket_id: bucket._id, name }, readOptions(db));
}

/**
 * Changes the display name, folder, alt text or metadata. The stored `name` never changes: file
 * Metafields and URLs hold it. The file itself is replaced by replaceMediaFile (media-replace.ts).
 */
export async function updateMedia(deps: EventDeps, bucket: BucketDoc, id: string, input: unknown): Promise<MediaDoc> {
  const _id = mediaId(bucket, id);
  assertValid('MediaPatch', input, 'body');
  const problems = [
    ...(input.original_name === undefined ? [] : originalNameProblems(input.original_name, 'body.original_name')),
    ...(input.metadata === undefined ? [] : metadataProblems(input.metadata, 'body.metadata')),
  ];
  if (problems.length > 0) throw new BadRequestError(`Invalid request body: ${problems.join('; ')}`, 'invalid_body');
  const set: Partial<MediaDoc> = { modified_at: new Date() };
  if (input.original_name !== undefined) set.original_name = input.original_name.trim();
  if (input.folder !== undefined)
    set.folder = input.folder === null || input.folder.trim() === '' ? null : input.folder.trim();
  if (set.folder) await assertFolderExists(deps.db, bucket, set.folder, 'body.folder');
  if (input.alt_text !== undefined) set.alt_text = input.alt_text;
  if (input.metadata !== undefined) set.metadata = input.metadata;
  const updated = await mediaCollection(deps.db).findOneAndUpdate(
    { _id, bucket_id: bucket._id },
    { $set: set },
    { returnDocument: 'after' },
  );
  if (!updated) throw notFound('media', id, bucket.slug);
  await finishChange(deps, bucket, { type: 'media.edited', doc: updated });
  return updated;
}

/**
 * Removes the record first, so both file URLs answer 404 from that moment, then the stored
 * bytes and every processed variant. `notify`: the request's trigger_webhook.
 */
export async function deleteMedia(deps: EventDeps, bucket: BucketDoc, id: string, notify: boolean): Promise<void> {
  const { db } = deps;
  const _id = mediaId(bucket, id);
  await ensureUsage(db, bucket._id);
  const doc = await mediaCollection(db).findOneAndDelete({ _id, bucket_id: bucket._id });
  if (!doc) throw notFound('media', id, bucket.slug);
  await countRemoval(db, bucket._id, 'media_bytes', doc.size);
  await finishChange(deps, bucket, { type: 'media.deleted', doc }, notify);
  await removeOriginal(db, doc.file_id);
  await removeVariantsOf(db, doc._id);
}
