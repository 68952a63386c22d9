import { ObjectId, type Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { mediaCollection, type MediaDoc } from '../db/media-collection.js';
import { NotFoundError, ValidationErrors } from '../errors/http-errors.js';
import { removeOriginal, removeVariantsOf } from '../media/file-store.js';
import type { StoredUpload } from '../media/gridfs-storage.js';
import { metadataProblems, type UploadFields } from '../media/upload-fields.js';
import { assertValid } from '../validation/ajv-messages.js';
import { addBoundsReport } from '../validation/json-bounds.js';
import { bumpGeneration } from './bucket-generation.js';
import { readOptions } from './query-time-limit.js';

function notFound(bucket: BucketDoc, id: string): NotFoundError {
  return new NotFoundError(`Media with id '${id}' not found in bucket '${bucket.slug}'`);
}

/** A malformed id names no media item: 404 like any unknown id. */
function mediaId(bucket: BucketDoc, id: string): ObjectId {
  if (!/^[0-9a-f]{24}$/i.test(id)) throw notFound(bucket, id);
  return new ObjectId(id);
}

/** Records an upload whose bytes are already stored. The caller removes the file if this throws. */
export async function createMedia(
  db: Db,
  bucket: BucketDoc,
  stored: StoredUpload,
  fields: UploadFields,
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
    created_at: now,
    modified_at: now,
  };
  await mediaCollection(db).insertOne(doc);
  await bumpGeneration(db, bucket._id);
  return doc;
}

export async function getMedia(db: Db, bucket: BucketDoc, id: string): Promise<MediaDoc> {
  const doc = await mediaCollection(db).findOne({ _id: mediaId(bucket, id), bucket_id: bucket._id }, readOptions(db));
  if (!doc) throw notFound(bucket, id);
  return doc;
}

/** The media item a file URL names, or null. */
export function findMediaByName(db: Db, bucket: BucketDoc, name: string): Promise<MediaDoc | null> {
  return mediaCollection(db).findOne({ bucket_id: bucket._id, name }, readOptions(db));
}

interface MediaPatch {
  folder?: string | null;
  alt_text?: string;
  metadata?: Record<string, unknown>;
}

/** Changes folder, alt text or metadata; the file itself is never replaced. */
export async function updateMedia(db: Db, bucket: BucketDoc, id: string, body: unknown): Promise<MediaDoc> {
  const _id = mediaId(bucket, id);
  assertValid('MediaPatch', body, 'body');
  const input = body as MediaPatch;
  if (input.metadata !== undefined) {
    const errors = new ValidationErrors();
    addBoundsReport(errors, metadataProblems(input.metadata, 'body.metadata'));
    errors.throwIfAny('Invalid request body', 'invalid_body');
  }
  const set: Partial<MediaDoc> = { modified_at: new Date() };
  if (input.folder !== undefined)
    set.folder = input.folder === null || input.folder.trim() === '' ? null : input.folder.trim();
  if (input.alt_text !== undefined) set.alt_text = input.alt_text;
  if (input.metadata !== undefined) set.metadata = input.metadata;
  const updated = await mediaCollection(db).findOneAndUpdate(
    { _id, bucket_id: bucket._id },
    { $set: set },
    { returnDocument: 'after' },
  );
  if (!updated) throw notFound(bucket, id);
  await bumpGeneration(db, bucket._id);
  return updated;
}

/**
 * Removes the record first, so both file URLs answer 404 from that moment, then the stored
 * bytes and every processed variant.
 */
export async function deleteMedia(db: Db, bucket: BucketDoc, id: string): Promise<void> {
  const doc = await mediaCollection(db).findOneAndDelete({ _id: mediaId(bucket, id), bucket_id: bucket._id });
  if (!doc) throw notFound(bucket, id);
  await bumpGeneration(db, bucket._id);
  await removeOriginal(db, doc.file_id);
  await removeVariantsOf(db, doc._id);
}
