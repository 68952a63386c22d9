import type { Db, ObjectId } from 'mongodb';
import { MEDIA_FILES_BUCKET, MEDIA_VARIANTS_BUCKET } from '../store/media.js';

/** File ids looked up per round trip. */
const BATCH = 1000;

export interface SweepOptions {
  /**
   * Chunks of a file are left alone while any of them was written more recently than this:
   * another process may still be storing that upload (GridFS writes the files document last).
   */
  olderThanMs: number;
}

export interface SweepResult {
  /** Files whose chunks were removed. */
  files: number;
  chunks: number;
}

/** When the newest chunk of a file was written (the driver gives each chunk a fresh ObjectId). */
async function lastWrite(db: Db, bucketName: string, fileId: ObjectId): Promise<Date | null> {
  const [newest] = await db
    .collection<{ _id: ObjectId }>(`${bucketName}.chunks`)
    .find({ files_id: fileId }, { projection: { _id: 1 } })
    .sort({ n: -1 })
    .limit(1)
    .toArray();
  return newest ? newest._id.getTimestamp() : null;
}

/** Of these file ids, those with chunks but no files document, idle for the grace period. */
async function staleOrphans(db: Db, bucketName: string, ids: ObjectId[], cutoff: Date): Promise<ObjectId[]> {
  const present = await db
    .collection<{ _id: ObjectId }>(`${bucketName}.files`)
    .find({ _id: { $in: ids } }, { projection: { _id: 1 } })
    .toArray();
  const known = new Set(present.map((d) => d._id.toHexString()));
  const stale: ObjectId[] = [];
  for (const id of ids) {
    // The file id is made when its upload starts: a newer one cannot have been idle long enough.
    if (known.has(id.toHexString()) || id.getTimestamp() >= cutoff) continue;
    const last = await lastWrite(db, bucketName, id);
    if (last && last < cutoff) stale.push(id);
  }
  return stale;
}

async function sweepBucket(db: Db, bucketName: string, cutoff: Date): Promise<SweepResult> {
  const chunks = db.collection(`${bucketName}.chunks`);
  const result: SweepResult = { files: 0, chunks: 0 };
  const flush = async (ids: ObjectId[]) => {
    const stale = await staleOrphans(db, bucketName, ids, cutoff);
    if (stale.length === 0) return;
    const { deletedCount } = await chunks.deleteMany({ files_id: { $in: stale } });
    result.files += stale.length;
    result.chunks += deletedCount;
  };
  // Sorted on the (files_id, n) index and grouped without accumulators, MongoDB walks the
  // index's distinct keys instead of reading every chunk.
  const fileIds = chunks.aggregate<{ _id: ObjectId }>([
    { $sort: { files_id: 1, n: 1 } },
    { $group: { _id: '$files_id' } },
  ]);
  let batch: ObjectId[] = [];
  for await (const { _id } of fileIds) {
    batch.push(_id);
    if (batch.length === BATCH) {
      await flush(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await flush(batch);
  return result;
}

/**
 * Removes GridFS chunks whose file has no files document: what a process killed mid-upload (or
 * mid-removal) leaves behind, since GridFS writes the files document only once the last chunk
 * is stored. Run it at start-up; `olderThanMs` protects uploads other processes still have in
 * flight, so it should exceed the longest pause between two chunks of a live upload.
 */
export async function sweepOrphanChunks(db: Db, { olderThanMs }: SweepOptions): Promise<SweepResult> {
  const cutoff = new Date(Date.now() - olderThanMs);
  const total: SweepResult = { files: 0, chunks: 0 };
  for (const bucketName of [MEDIA_FILES_BUCKET, MEDIA_VARIANTS_BUCKET]) {
    const swept = await sweepBucket(db, bucketName, cutoff);
    total.files += swept.files;
    total.chunks += swept.chunks;
  }
  return total;
}
