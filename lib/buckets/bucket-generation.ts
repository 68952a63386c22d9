import type { Db, ObjectId } from 'mongodb';
import { bucketsCollection } from '../db/collections.js';
import { typeGenerationField } from '../cache/object-generations.js';
import type { BatchWrite } from '../db/write-batch.js';

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

/**
 * What an Object version write bumps: the generation of reads of any Object and that of each
 * type it wrote, not the Bucket's own, so reads of other types, the Bucket's types and every
 * other memo keyed on `generation` stay (lib/cache/object-generations.ts).
 */
export function objectGenerationsWrite(db: Db, bucketId: ObjectId, types: readonly string[]): BatchWrite {
  const inc: Record<string, number> = { object_generation: 1 };
  for (const t of types) inc[`type_generations.${typeGenerationField(t)}`] = 1;
  return {
    to: bucketsCollection(db),
    model: { name: 'updateOne', filter: { _id: bucketId }, update: { $inc: inc, $set: { modified_at: new Date() } } },
  };
}
