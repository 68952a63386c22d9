import { ObjectId, type Collection, type Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { finishWrite, type EventDeps } from '../events/domain-events.js';
import { readOptions } from '../db/service-db.js';

/** A Block installed in a Bucket: a bundle of Object types (and starter content) it came with. */
export interface BlockDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  slug: string;
  title: string;
  /** Slugs of the Object types the Block brought. */
  object_types: string[];
  installed_at: Date;
}

/** A Block as GET /blocks answers it (schemas/Block.json). */
export type ApiBlock = { id: string; slug: string; title: string; object_types: string[]; installed_at: string };

export function blocksCollection(db: Db): Collection<BlockDoc> {
  return db.collection<BlockDoc>('blocks');
}

export async function ensureBlockIndexes(db: Db): Promise<void> {
  await blocksCollection(db).createIndex(
    { bucket_id: 1, slug: 1 },
    { unique: true, name: 'bucket_slug_unique' },
    undefined,
  );
}

export async function listBlocks(db: Db, bucket: BucketDoc): Promise<BlockDoc[]> {
  return blocksCollection(db)
    .find({ bucket_id: bucket._id }, readOptions(db))
    .sort({ installed_at: 1, _id: 1 })
    .toArray();
}

export async function findBlock(db: Db, bucket: BucketDoc, slug: string): Promise<BlockDoc | null> {
  return blocksCollection(db).findOne({ bucket_id: bucket._id, slug }, readOptions(db));
}

/** Records a Block whose content is in place; recording it again (a rerun) changes nothing. */
export async function recordBlock(
  deps: EventDeps,
  bucket: BucketDoc,
  block: Pick<BlockDoc, 'slug' | 'title' | 'object_types'>,
): Promise<BlockDoc> {
  const doc = await blocksCollection(deps.db).findOneAndUpdate(
    { bucket_id: bucket._id, slug: block.slug },
    {
      $setOnInsert: {
        _id: new ObjectId(),
        bucket_id: bucket._id,
        slug: block.slug,
        title: block.title,
        object_types: block.object_types,
        installed_at: new Date(),
      },
    },
    { upsert: true, returnDocument: 'after' },
  );
  if (!doc) throw new Error(`recording Block '${block.slug}' returned nothing`);
  await finishWrite(deps, bucket._id, []);
  return doc;
}

export function renderBlock(doc: BlockDoc): ApiBlock {
  return {
    id: doc._id.toHexString(),
    slug: doc.slug,
    title: doc.title,
    object_types: doc.object_types,
    installed_at: doc.installed_at.toISOString(),
  };
}

/** The Blocks list answer (schemas/BlocksList.json). */
export type BlocksList = { blocks: ApiBlock[] };
