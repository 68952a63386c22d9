import type { Db, GridFSFile, ObjectId } from 'mongodb';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MEDIA_VARIANTS_BUCKET, mediaVariants, type StoredFileMeta } from '../store/media.js';
import { readOptions } from '../db/service-db.js';
import type { BackgroundRemover } from './background-remover.js';

/** A use refreshes a variant's recency at most this often, so cache hits rarely cost a write. */
const TOUCH_EVERY_MS = 60_000;

/** Variant metadata: the shared file metadata plus when the variant was last served. */
type VariantMeta = StoredFileMeta & { used_at: Date };

/**
 * Processed images in GridFS, kept under a byte budget per Bucket: least recently used first
 * out. Recency lives in the files document (`metadata.used_at`), so every process shares it.
 */
export class VariantStore {
  constructor(
    private readonly db: Db,
    private readonly remover: BackgroundRemover,
    private readonly budgetBytes: number,
  ) {}

  private get files() {
    return this.db.collection<GridFSFile>(`${MEDIA_VARIANTS_BUCKET}.files`);
  }

  async find(name: string): Promise<GridFSFile | null> {
    const [file] = await this.files
      .find({ filename: name }, readOptions(this.db))
      .sort({ uploadDate: -1 })
      .limit(1)
      .toArray();
    return file ?? null;
  }

  /** Marks a variant as used now; a write only when its recorded use is over a minute old. */
  async touch(file: GridFSFile): Promise<void> {
    const usedAt: unknown = file.metadata?.used_at;
    const now = new Date();
    if (usedAt instanceof Date && now.getTime() - usedAt.getTime() < TOUCH_EVERY_MS) return;
    await this.files.updateOne({ _id: file._id }, { $set: { 'metadata.used_at': now } });
  }

  async countFor(mediaId: ObjectId): Promise<number> {
    return this.files.countDocuments({ 'metadata.media_id': mediaId }, readOptions(this.db));
  }

  /** Whether a variant of this many bytes may be stored at all (it must fit the budget alone). */
  fits(bytes: number): boolean {
    return bytes <= this.budgetBytes;
  }

  /** Stores a variant, then evicts the Bucket's least recently used ones beyond the budget. */
  async store(name: string, bytes: Buffer, meta: StoredFileMeta): Promise<GridFSFile> {
    const metadata: VariantMeta = { ...meta, used_at: new Date() };
    const upload = mediaVariants(this.db).openUploadStream(name, { metadata });
    await pipeline(Readable.from([bytes]), upload);
    if (!upload.gridFSFile) throw new Error(`variant ${name} was not recorded`);
    await this.evict(meta.bucket_id, upload.gridFSFile._id);
    return upload.gridFSFile;
  }

  /**
   * Removes the least recently used variants of a Bucket until its total is within the budget,
   * never `keep` (the one just made). Files documents go at once, so the variants stop being
   * served and counted; their chunks follow in the background.
   */
  private async evict(bucketId: ObjectId, keep: ObjectId): Promise<void> {
    const [total] = await this.files
      .aggregate<{ bytes: number }>(
        [{ $match: { 'metadata.bucket_id': bucketId } }, { $group: { _id: null, bytes: { $sum: '$length' } } }],
        readOptions(this.db),
      )
      .toArray();
    let excess = (total?.bytes ?? 0) - this.budgetBytes;
    if (excess <= 0) return;
    const victims: ObjectId[] = [];
    // Variants stored before recency was recorded have no used_at and sort first.
    const oldest = this.files
      .find(
        { 'metadata.bucket_id': bucketId, _id: { $ne: keep } },
        { projection: { _id: 1, length: 1 }, ...readOptions(this.db) },
      )
      .sort({ 'metadata.used_at': 1, _id: 1 });
    for await (const file of oldest) {
      victims.push(file._id);
      excess -= file.length;
      if (excess <= 0) break;
    }
    await oldest.close();
    if (victims.length === 0) return;
    await this.files.deleteMany({ _id: { $in: victims } });
    this.remover.remove(MEDIA_VARIANTS_BUCKET, victims);
  }
}
