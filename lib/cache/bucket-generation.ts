import type { Db, Document, ObjectId } from 'mongodb';
import { bucketsCollection } from '../db/collections.js';
import { typeGenerationField } from './object-generations.js';
import type { BatchWrite } from '../db/write-batch.js';
import { readOptions } from '../db/query-time-limit.js';

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
 * How many written Object ids the Bucket keeps per type, for writes sent one command at a time: a
 * kept order behind by more is read again. Enough for lists read in turn (300 URLs over 30 orders,
 * read again every few seconds) while an editor saves 20 times a second. 256 ids add about 4 kB to
 * the Bucket per written type, left out of its read on every request; writes sent as one bulkWrite
 * note theirs in a document of their own instead (lib/cache/write-notes.ts), many more of them.
 */
export const RECENT_WRITES_KEPT = 256;

/**
 * What an Object version write of `objectId` bumps: the generation of reads of any Object and
 * that of its type, not the Bucket's own, so reads of other types, the Bucket's types and every
 * other memo keyed on `generation` stay (lib/cache/object-generations.ts). Sent one command at a
 * time, the same update notes the Object among its type's recent writes (in one bulkWrite the
 * write's own note, sent just before, does: writeNoteWrite).
 */
export function objectGenerationsWrites(db: Db, bucketId: ObjectId, type: string, objectId: ObjectId): BatchWrite[] {
  const field = typeGenerationField(type);
  const bump = { object_generation: 1, [`type_generations.${field}`]: 1 };
  // A Document: the driver's types know no path built at run time.
  const push: Document = { [`recent_writes.${field}`]: { $each: [objectId], $slice: -RECENT_WRITES_KEPT } };
  const to = bucketsCollection(db);
  const filter = { _id: bucketId };
  return [
    {
      to,
      only: 'in-one-command',
      model: {
        name: 'updateOne',
        filter,
        // Ids an earlier release (or a write sent apart) noted on the Bucket go: they would only
        // make the Bucket, rewritten by every write, larger. A follow from them then reads whole.
        update: { $inc: bump, $set: { modified_at: new Date() }, $unset: { [`recent_writes.${field}`]: '' } },
      },
    },
    {
      to,
      only: 'apart',
      model: {
        name: 'updateOne',
        filter,
        update: {
          $inc: { ...bump, [`recent_write_counts.${field}`]: 1 },
          $push: push,
          $set: { modified_at: new Date() },
        },
      },
    },
  ];
}

/** The ids of `type`'s recent writes noted on the Bucket `bucketId` (oldest first) and how many were ever noted, read now. */
export async function recentWrites(
  db: Db,
  bucketId: ObjectId,
  type: string,
): Promise<{ ids: ObjectId[]; count: number }> {
  const field = typeGenerationField(type);
  const found = await bucketsCollection(db).findOne(
    { _id: bucketId },
    { projection: { [`recent_writes.${field}`]: 1, [`recent_write_counts.${field}`]: 1 }, ...readOptions(db) },
  );
  return { ids: found?.recent_writes?.[field] ?? [], count: found?.recent_write_counts?.[field] ?? 0 };
}
