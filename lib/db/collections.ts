import type { Collection, Db, ObjectId } from 'mongodb';

/** A Bucket: the tenant every content document is keyed by. Keys are stored as SHA-256 digests. */
export interface BucketDoc {
  _id: ObjectId;
  slug: string;
  read_key_hash: string | null;
  write_key_hash: string | null;
  /** Bumped by every write to the Bucket; part of read-cache keys so all processes see writes. */
  generation: number;
  created_at: Date;
  modified_at: Date;
}

export function bucketsCollection(db: Db): Collection<BucketDoc> {
  return db.collection<BucketDoc>('buckets');
}

/** Every collection whose documents carry bucket_id, so deleting a Bucket removes all it owns. */
export const BUCKET_SCOPED_COLLECTIONS = ['object_types', 'objects', 'revisions', 'media'];
