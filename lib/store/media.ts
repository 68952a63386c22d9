import { GridFSBucket, MongoServerError, type Collection, type Db, type ObjectId } from 'mongodb';
import { LEGACY_MEDIA_SORT_FIELDS } from '../query/sort.js';
import type { IndexSpec } from '../db/indexes.js';

/**
 * A media item's record. The bytes live in GridFS (`media_files`, id `file_id`); this document
 * is what the media API lists, filters and patches, so listing never touches file storage.
 */
export interface MediaDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  /** Stored file name, unique per Bucket; the value a file Metafield holds. */
  name: string;
  original_name: string;
  size: number;
  /** MIME type, sniffed from the first bytes where recognisable. */
  type: string;
  folder: string | null;
  alt_text: string;
  metadata: Record<string, unknown>;
  /** Pixel size of images whose header could be read; null otherwise. */
  width: number | null;
  height: number | null;
  file_id: ObjectId;
  created_at: Date;
  modified_at: Date;
}

/** `metadata` of a GridFS file of either bucket, so a Bucket's files can be found without its records. */
export interface StoredFileMeta {
  bucket_id: ObjectId;
  /** Variants only: the media record they were made from. */
  media_id?: ObjectId;
  /** Variants only: the encoded format's MIME type. */
  content_type?: string;
}

export const MEDIA_FILES_BUCKET = 'media_files';
export const MEDIA_VARIANTS_BUCKET = 'media_variants';

export function mediaCollection(db: Db): Collection<MediaDoc> {
  return db.collection<MediaDoc>('media');
}

/** Original uploads. */
export function mediaFiles(db: Db): GridFSBucket {
  return new GridFSBucket(db, { bucketName: MEDIA_FILES_BUCKET });
}

/** Processed images, kept so a repeated request for the same variant does no work. */
export function mediaVariants(db: Db): GridFSBucket {
  return new GridFSBucket(db, { bucketName: MEDIA_VARIANTS_BUCKET });
}

/**
 * The indexes that serve media lists (v3 sorts and the legacy v1/v2 ones): every list filter pins
 * `bucket_id` (lib/media/media-list-query.ts), and the page is read in index order from
 * `bucket_id, <sort>, _id`, `_id` being the tie-breaker every sort ends with and the `after`
 * keyset compares. The index-contract unit test holds the media list query builder to this table.
 */
export const MEDIA_LIST_INDEXES: readonly IndexSpec[] = LEGACY_MEDIA_SORT_FIELDS.map((f) => ({
  key: { bucket_id: 1, [f]: -1, _id: -1 },
  name: `bucket_${f}`,
}));

/** Earlier `bucket_id, created_at` only: a prefix of `bucket_created_at`, so it serves nothing that one does not. */
const SUPERSEDED_MEDIA_INDEX = 'bucket_created';
/** The server's code for dropping an index that is not there (another process dropped it first). */
const INDEX_NOT_FOUND = 27;

async function dropSupersededIndex(media: Collection<MediaDoc>): Promise<void> {
  if (!(await media.indexExists(SUPERSEDED_MEDIA_INDEX))) return;
  try {
    await media.dropIndex(SUPERSEDED_MEDIA_INDEX);
  } catch (err) {
    if (!(err instanceof MongoServerError && err.code === INDEX_NOT_FOUND)) throw err;
  }
}

/**
 * Indexes of the media record and both GridFS buckets. The GridFS ones the driver would create
 * lazily on first upload are created here too, so concurrent first uploads never race for them.
 */
export async function ensureMediaIndexes(db: Db): Promise<void> {
  const media = mediaCollection(db);
  // `undefined` command options select the driver's three-argument createIndex; the two-argument
  // form, which mixed index and command options, is deprecated.
  await media.createIndex({ bucket_id: 1, name: 1 }, { unique: true, name: 'bucket_name_unique' }, undefined);
  for (const index of MEDIA_LIST_INDEXES) await media.createIndex(index.key, { name: index.name }, undefined);
  await dropSupersededIndex(media);
  for (const bucketName of [MEDIA_FILES_BUCKET, MEDIA_VARIANTS_BUCKET]) {
    await db
      .collection(`${bucketName}.files`)
      .createIndex({ filename: 1, uploadDate: 1 }, { name: 'filename_1_uploadDate_1' }, undefined);
    await db
      .collection(`${bucketName}.chunks`)
      .createIndex({ files_id: 1, n: 1 }, { unique: true, name: 'files_id_1_n_1' }, undefined);
    await db
      .collection(`${bucketName}.files`)
      .createIndex({ 'metadata.bucket_id': 1 }, { name: 'metadata_bucket' }, undefined);
  }
  await db
    .collection(`${MEDIA_VARIANTS_BUCKET}.files`)
    .createIndex({ 'metadata.media_id': 1 }, { name: 'metadata_media' }, undefined);
}
