import { ObjectId, type Db } from 'mongodb';
import { BUCKET_SCOPED_COLLECTIONS, bucketsCollection, type BucketDoc } from '../db/collections.js';
import { BucketAdminError } from '../errors/domain-errors.js';
import { isDuplicateKey } from '../errors/mongo-errors.js';
import { removeBucketFiles } from '../store/files.js';
import { generateKey, hashKey } from '../http/request.js';
import { readOptions } from '../db/service-db.js';

export const BUCKET_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** A key choice: a given key, a generated one, or none (the Bucket then accepts requests without). */
export type KeyChoice = { kind: 'given'; key: string } | { kind: 'generate' } | { kind: 'none' };

export interface IssuedKeys {
  slug: string;
  read_key: string | null;
  write_key: string | null;
}

function resolveKey(choice: KeyChoice): string | null {
  if (choice.kind === 'none') return null;
  return choice.kind === 'given' ? choice.key : generateKey();
}

/**
 * The Bucket every request reads, without the ids of its types' recent writes: only a list that
 * follows writes needs them (bucket-generation.ts), and they grow with the types written.
 */
export async function findBucketBySlug(db: Db, slug: string): Promise<BucketDoc | null> {
  return bucketsCollection(db).findOne({ slug }, { projection: { recent_writes: 0 }, ...readOptions(db) });
}

export async function createBucket(db: Db, slug: string, read: KeyChoice, write: KeyChoice): Promise<IssuedKeys> {
  if (!BUCKET_SLUG_PATTERN.test(slug)) {
    throw new BucketAdminError(
      `Invalid bucket slug "${slug}": use lowercase letters, digits and hyphens (1-63, not starting with a hyphen)`,
    );
  }
  const readKey = resolveKey(read);
  const writeKey = resolveKey(write);
  const now = new Date();
  try {
    await bucketsCollection(db).insertOne({
      _id: new ObjectId(),
      slug,
      read_key_hash: readKey === null ? null : hashKey(readKey),
      write_key_hash: writeKey === null ? null : hashKey(writeKey),
      generation: 0,
      created_at: now,
      modified_at: now,
    });
  } catch (err) {
    if (isDuplicateKey(err)) throw new BucketAdminError(`Bucket "${slug}" already exists`);
    throw err;
  }
  return { slug, read_key: readKey, write_key: writeKey };
}

export interface BucketSummary {
  id: string;
  slug: string;
  has_read_key: boolean;
  has_write_key: boolean;
  created_at: string;
}

export async function listBuckets(db: Db): Promise<BucketSummary[]> {
  const docs = await bucketsCollection(db).find({}, readOptions(db)).sort({ slug: 1 }).toArray();
  return docs.map((b) => ({
    id: b._id.toHexString(),
    slug: b.slug,
    has_read_key: b.read_key_hash !== null,
    has_write_key: b.write_key_hash !== null,
    created_at: b.created_at.toISOString(),
  }));
}

/** New keys for every key the Bucket has; a disabled key stays disabled. */
export async function rotateKeys(db: Db, slug: string): Promise<IssuedKeys> {
  const bucket = await findBucketBySlug(db, slug);
  if (!bucket) throw new BucketAdminError(`Bucket "${slug}" does not exist`);
  const readKey = bucket.read_key_hash === null ? null : generateKey();
  const writeKey = bucket.write_key_hash === null ? null : generateKey();
  await bucketsCollection(db).updateOne(
    { _id: bucket._id },
    {
      $set: {
        read_key_hash: readKey === null ? null : hashKey(readKey),
        write_key_hash: writeKey === null ? null : hashKey(writeKey),
        modified_at: new Date(),
      },
      $inc: { generation: 1 },
    },
  );
  return { slug, read_key: readKey, write_key: writeKey };
}

export async function deleteBucket(db: Db, slug: string): Promise<void> {
  const bucket = await findBucketBySlug(db, slug);
  if (!bucket) throw new BucketAdminError(`Bucket "${slug}" does not exist`);
  for (const name of BUCKET_SCOPED_COLLECTIONS) {
    await db.collection(name).deleteMany({ bucket_id: bucket._id });
  }
  await removeBucketFiles(db, bucket._id);
  await bucketsCollection(db).deleteOne({ _id: bucket._id });
}
