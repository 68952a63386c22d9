import { GridFSBucket, ObjectId, type Db } from 'mongodb';
import { removeGridFile } from '../store/files.js';
import { EXTENSION_ARCHIVES_BUCKET } from '../store/extensions.js';

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

/** GridFS chunks (255 KiB each) fetched per round trip; a download stream's cursor takes up to 16 MB. */
const READ_BATCH = 2;

interface ArchiveChunk {
  files_id: ObjectId;
  n: number;
  data: Buffer;
}

/** Why a kept archive cannot be read; a fault of the storage, answered 500 and logged. */
export class ArchiveDamaged extends Error {}

/**
 * The bytes [start, end) of a kept archive, chunk by chunk in order, holding a couple of chunks
 * at a time however large the archive or the range. A missing or misshapen chunk throws
 * ArchiveDamaged rather than ending the bytes early.
 */
export async function* readArchive(db: Db, fileId: ObjectId, start: number, end: number): AsyncGenerator<Buffer> {
  if (end <= start) return;
  const file = await db
    .collection<{ length: number; chunkSize: number }>(`${EXTENSION_ARCHIVES_BUCKET}.files`)
    .findOne({ _id: fileId }, { projection: { length: 1, chunkSize: 1 } });
  const where = `the kept archive ${fileId.toHexString()}`;
  if (!file || end > file.length) throw new ArchiveDamaged(`${where} is missing or shorter than ${end} bytes`);
  const { chunkSize, length } = file;
  const last = Math.floor((end - 1) / chunkSize);
  let n = Math.floor(start / chunkSize);
  const chunks = db
    .collection<ArchiveChunk>(`${EXTENSION_ARCHIVES_BUCKET}.chunks`)
    .find({ files_id: fileId, n: { $gte: n, $lte: last } }, { promoteBuffers: true })
    .sort({ n: 1 })
    .batchSize(READ_BATCH);
  for await (const chunk of chunks) {
    const at = n * chunkSize;
    if (chunk.n !== n || chunk.data.length !== Math.min(chunkSize, length - at)) {
      throw new ArchiveDamaged(`${where}: chunk ${n} is missing or of the wrong size`);
    }
    yield chunk.data.subarray(Math.max(0, start - at), Math.min(chunk.data.length, end - at));
    n++;
  }
  if (n !== last + 1) throw new ArchiveDamaged(`${where}: chunk ${n} is missing`);
}

export function removeArchive(db: Db, fileId: ObjectId): Promise<void> {
  return removeGridFile(db, EXTENSION_ARCHIVES_BUCKET, fileId);
}
