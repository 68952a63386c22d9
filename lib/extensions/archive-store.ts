import { GridFSBucket, ObjectId, type Db } from 'mongodb';
import { removeGridFile } from '../media/file-store.js';
import { EXTENSION_ARCHIVES_BUCKET } from './collection.js';

function archives(db: Db): GridFSBucket {
  return new GridFSBucket(db, { bucketName: EXTENSION_ARCHIVES_BUCKET });
}

/** Keeps an accepted archive (already checked and capped, so held in memory) in GridFS. */
export function storeArchive(db: Db, bucketId: ObjectId, name: string, bytes: Buffer): Promise<ObjectId> {
  const id = new ObjectId();
  return new Promise((resolve, reject) => {
    const upload = archives(db).openUploadStreamWithId(id, name, {
      metadata: { bucket_id: bucketId, content_type: 'application/zip' },
    });
    upload.once('error', reject);
    upload.once('finish', () => {
      resolve(id);
    });
    upload.end(bytes);
  });
}

/** The whole archive: at most EXTENSION_ZIP_MAX_BYTES, as it was checked before it was stored. */
export async function readArchive(db: Db, fileId: ObjectId): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of archives(db).openDownloadStream(fileId)) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** The bytes [start, end) of an archive: one entry's stored data. */
export async function readArchiveRange(db: Db, fileId: ObjectId, start: number, end: number): Promise<Buffer> {
  if (end <= start) return Buffer.alloc(0);
  const parts: Buffer[] = [];
  for await (const chunk of archives(db).openDownloadStream(fileId, { start, end })) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

export function removeArchive(db: Db, fileId: ObjectId): Promise<void> {
  return removeGridFile(db, EXTENSION_ARCHIVES_BUCKET, fileId);
}
