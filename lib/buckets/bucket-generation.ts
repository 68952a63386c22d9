import type { Db, ObjectId } from 'mongodb';
import { bucketsCollection } from '../db/collections.js';

/**
 * Every write to a Bucket bumps its generation. Read caches key on it, so a write made
 * through any app process invalidates cached reads in all of them.
 */
export async function bumpGeneration(db: Db, bucketId: ObjectId): Promise<void> {
  await bucketsCollection(db).updateOne(
    { _id: bucketId },
    { $inc: { generation: 1 }, $set: { modified_at: new Date() } },
  );
}
