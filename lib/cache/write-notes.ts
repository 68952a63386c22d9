import type { Db, Document, ObjectId } from 'mongodb';
import { writeNotesCollection } from '../db/collections.js';
import { typeGenerationField } from './object-generations.js';
import type { BatchWrite } from '../db/write-batch.js';
import { readOptions } from '../db/query-time-limit.js';

/**
 * A type's write notes are split in parts by the written Object's id, each a document keeping its
 * last WRITE_NOTES_KEPT ids: together about 4,000 writes. A kept list order this far behind can
 * still follow: a pass over many lists that takes 20 s while an editor saves 20 times a second
 * comes back 400 writes behind, and at the Bucket's 256 every list would be matched and sorted
 * again, which made the next pass as slow. In parts because an engine may rewrite a document
 * whole on every update: a $push into one of 4,096 ids cost the embedded engine 2 ms, into one of
 * 128 a twentieth of that. Out of the Bucket, so its read on every request stays small.
 */
export const WRITE_NOTE_PARTS = 32;
export const WRITE_NOTES_KEPT = 128;

/** The ids of the last writes noted in one part, oldest first, and how many were ever noted there. */
export interface NotedWrites {
  ids: readonly ObjectId[];
  count: number;
}

/** The part `objectId`'s writes are noted in: by the low bits of its counter, which every new id moves. */
function partOf(objectId: ObjectId): number {
  return (objectId.id[11] ?? 0) % WRITE_NOTE_PARTS;
}

function notesId(bucketId: ObjectId, type: string, part: number): string {
  return `${bucketId.toHexString()}:${typeGenerationField(type)}:${String(part)}`;
}

/**
 * Notes that a version write wrote `objectId`. Sent only in one ordered bulkWrite, after the views
 * and before the generation bump (lib/objects/write/version-write.ts): so an Object whose view changed
 * after a list order was read is noted after any count of its part read before that order.
 * An upsert: the first write into a part makes its document.
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
      filter: { _id: notesId(bucketId, type, partOf(objectId)), bucket_id: bucketId },
      update: { $inc: { count: 1 }, $push: push },
      upsert: true,
    },
  };
}

/**
 * `type`'s write notes in `bucketId`, part by part, read now in one command (a part not made yet:
 * count 0): of each part its count and its last `tail` ids (a follow a few writes behind needs a
 * few of each part's 128; a new order only the counts).
 */
export async function readWriteNotes(db: Db, bucketId: ObjectId, type: string, tail: number): Promise<NotedWrites[]> {
  const ids = Array.from({ length: WRITE_NOTE_PARTS }, (_, part) => notesId(bucketId, type, part));
  const projection = tail > 0 ? { count: 1, ids: { $slice: -tail } } : { count: 1 };
  const found = await writeNotesCollection(db)
    .find({ _id: { $in: ids }, bucket_id: bucketId }, { projection, ...readOptions(db) })
    .toArray();
  const byId = new Map(found.map((doc) => [doc._id, doc]));
  return ids.map((id) => ({ ids: byId.get(id)?.ids ?? [], count: byId.get(id)?.count ?? 0 }));
}
