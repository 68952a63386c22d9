import type { Db, ObjectId } from 'mongodb';
import { MEDIA_FILES_BUCKET, MEDIA_VARIANTS_BUCKET } from './media.js';
import { EXTENSION_ARCHIVES_BUCKET } from './extensions.js';

/** Ids removed per round trip when a whole Bucket's files go. */
const BATCH = 500;

/**
 * Removes a GridFS file's chunks and its files document. Deleting by id with deleteMany (not
 * GridFSBucket#delete) also clears a partial upload, whose files document was never written.
 */
export async function removeGridFile(db: Db, bucketName: string, fileId: ObjectId): Promise<void> {
  await db.collection(`${bucketName}.chunks`).deleteMany({ files_id: fileId });
  await db.collection(`${bucketName}.files`).deleteMany({ _id: fileId });
}

export function removeOriginal(db: Db, fileId: ObjectId): Promise<void> {
  return removeGridFile(db, MEDIA_FILES_BUCKET, fileId);
}

/** Every processed variant made from one media item. */
export async function removeVariantsOf(db: Db, mediaId: ObjectId): Promise<void> {
  await removeFilesWhere(db, MEDIA_VARIANTS_BUCKET, { 'metadata.media_id': mediaId });
}

/**
 * The variants made from one stored file of a media item (variant names start with the file's
 * id, see imgproc.ts): a replaced file's, leaving those already made from its successor.
 */
export async function removeVariantsOfFile(db: Db, mediaId: ObjectId, fileId: ObjectId): Promise<void> {
  const prefix = new RegExp(`^${fileId.toHexString()}/`);
  await removeFilesWhere(db, MEDIA_VARIANTS_BUCKET, { 'metadata.media_id': mediaId, filename: prefix });
}

async function removeFilesWhere(db: Db, bucketName: string, filter: Record<string, unknown>): Promise<void> {
  const files = db.collection(`${bucketName}.files`);
  for (;;) {
    const ids = (
      await files
        .find(filter, { projection: { _id: 1 } })
        .limit(BATCH)
        .toArray()
    ).map((d) => d._id);
    if (ids.length === 0) return;
    await db.collection(`${bucketName}.chunks`).deleteMany({ files_id: { $in: ids } });
    await files.deleteMany({ _id: { $in: ids } });
  }
}

/** All originals, variants and extension archives of a Bucket (their files carry the Bucket id), for Bucket deletion. */
export async function removeBucketFiles(db: Db, bucketId: ObjectId): Promise<void> {
  for (const bucketName of [MEDIA_FILES_BUCKET, MEDIA_VARIANTS_BUCKET, EXTENSION_ARCHIVES_BUCKET]) {
    await removeFilesWhere(db, bucketName, { 'metadata.bucket_id': bucketId });
  }
}

/** GridFS chunks fetched per round trip by readOriginal: a few, where a download's cursor takes up to 16 MB. */
const READ_BATCH = 4;

/**
 * The bytes of an original, chunk by chunk in order, holding a few chunks at a time (about 1 MB)
 * however large the file, so a whole Bucket's files can be streamed out in flat memory.
 */
export async function* readOriginal(db: Db, fileId: ObjectId): AsyncGenerator<Uint8Array> {
  const chunks = db
    .collection<{ files_id: ObjectId; n: number; data: { buffer: Uint8Array } }>(`${MEDIA_FILES_BUCKET}.chunks`)
    .find({ files_id: fileId })
    .sort({ n: 1 })
    .batchSize(READ_BATCH);
  for await (const chunk of chunks) yield chunk.data.buffer;
}
