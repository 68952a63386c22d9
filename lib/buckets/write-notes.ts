import type { Db, Document, ObjectId } from 'mongodb';
import { writeNotesCollection } from '../db/collections.js';
import { typeGenerationField } from '../cache/object-generations.js';
import type { BatchWrite } from '../db/write-batch.js';
import { readOptions } from '../db/query-time-limit.js';

/**
 * How many written Object ids a type's write notes keep (WriteNotesDoc). A kept list order this far
 * behind can still follow: a pass over many lists that takes 20 s while an editor saves 20 times a
 * second comes back 400 writes behind, and at the Bucket's 256 every list would be matched and
 * sorted again, which made the next pass as slow. About 17 bytes an id: 70 kB per written type,
 * in a document of its own, so the Bucket read on every request stays small.
 */
export const WRITE_NOTES_KEPT = 4096;

/** The ids of a type's last noted writes, oldest first, and how many were ever noted. */
export interface NotedWrites {
  ids: readonly ObjectId[];
  count: number;
}

function notesId(bucketId: ObjectId, type: string): string {
  return `${bucketId.toHexString()}:${typeGenerationField(type)}`;
}

/**
 * Notes that a version write wrote `objectId`. Sent only in one ordered bulkWrite, after the views
 * and before the generation bump (lib/objects/version-write.ts): so an Object whose view changed
 * after a list order was read is noted after any count of these notes read before that order.
 * An upsert: the first write of a type makes the document.
 */
export function writeNoteWrite(db: Db, bucketId: ObjectId, type: string, objectId: ObjectId): BatchWrite {
  // A Document: the driver's types take `ids` of a document whose _id is an ObjectId for unknown.
  const push: Document = { ids: { $each: [objectId], $slice: -WRITE_NOTES_KEPT } };
  return {
    to: writeNotesCollection(db),
    only: 'in-one-command',
    retryIfDuplicate: true,
    model: {
      name: 'updateOne',
      filter: { _id: notesId(bucketId, type), bucket_id: bucketId },
      update: { $inc: { count: 1 }, $push: push },
      upsert: true,
    },
  };
}

/** `type`'s write notes in `bucketId`, read now (none yet: count 0). */
export async function readWriteNotes(db: Db, bucketId: ObjectId, type: string): Promise<NotedWrites> {
  const found = await writeNotesCollection(db).findOne(
    { _id: notesId(bucketId, type), bucket_id: bucketId },
    readOptions(db),
  );
  return { ids: found?.ids ?? [], count: found?.count ?? 0 };
}
