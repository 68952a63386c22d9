// The counters every cache of a Bucket is keyed by: its generation, per-type generations, and the
// write notes a list read checks for writes still in flight; and the check of those counters a
// write sends when it took its Bucket from memory.
import { isDeepStrictEqual } from 'node:util';
import type { Db, Document, ObjectId } from 'mongodb';
import { bucketsCollection, writeNotesCollection, type BucketDoc } from '../db/collections.js';
import { checkAlone, foundOrStop, type BatchWrite } from '../db/write-batch.js';
import { readOptions } from '../db/service-db.js';

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
 * note theirs in a document of their own instead (lib/cache/bucket-generation.ts), many more of them.
 */
export const RECENT_WRITES_KEPT = 256;

/**
 * What an Object version write of `objectId` bumps: the generation of reads of any Object and
 * that of its type, not the Bucket's own, so reads of other types, the Bucket's types and every
 * other memo keyed on `generation` stay (lib/cache/bucket-generation.ts). Sent one command at a
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

/**
 * Which state of a Bucket a cached read was taken at. A Bucket keeps three kinds of generation
 * (bucket-generation.ts): `generation`, bumped by every write but Object version writes;
 * `object_generation`, bumped by every Object version write; and one per Object type, bumped by
 * the version writes of that type. A read that may show any Object keys on the first two; a read
 * that shows Objects of known types only keys on `generation` and those types' own, so a write
 * of another type leaves it (its response, kept order and total) in place.
 */

/** A type slug as a field name: no dots (paths) and no leading `$` (operators). */
export function typeGenerationField(slug: string): string {
  return encodeURIComponent(slug).replace(/\./g, '%2E');
}

/** The generation of a read of `types` only, or of any Object (null). */
export function readGeneration(bucket: BucketDoc, types: readonly string[] | null = null): string {
  if (types === null) return `${String(bucket.generation)}.${String(bucket.object_generation ?? 0)}`;
  const own = bucket.type_generations ?? {};
  const parts = [...new Set(types)].sort().map((t) => `${t}=${String(own[typeGenerationField(t)] ?? 0)}`);
  return `${String(bucket.generation)}:${parts.join(',')}`;
}

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

/**
 * An Object write (create, edit, delete) with the write key takes its Bucket as this process last
 * read it, instead of reading it again (lib/middleware/load-bucket.ts): one command fewer, and a
 * create waits for one round. What the write decided from it (the key, the types, the plan, the
 * webhooks) is then checked by the server, not assumed: the write's command starts with a check
 * that the Bucket is still as remembered (`bucketCheck`), and the server applies nothing after a
 * check that fails. The request is then run again with the Bucket read afresh, its key checked
 * again (a rotated key is refused as before).
 *
 * The check compares what every change of those bumps: `generation` (types, keys, plan),
 * `webhook_generation` (webhooks), and the write key itself, should anything set it without a
 * bump. A Bucket deleted meanwhile fails it too.
 */

/**
 * Marks Bucket documents handed out from memory: only they need the check. A property of the
 * copy itself (not enumerable, so never rendered or stored), not a registry beside it.
 */
const REMEMBERED = Symbol('taken from memory');

/** A copy of `doc` (as read), marked as one a write must check. */
export function rememberBucket(doc: BucketDoc): BucketDoc {
  const copy = { ...doc };
  Object.defineProperty(copy, REMEMBERED, { value: true });
  return copy;
}

export function isRemembered(doc: BucketDoc): boolean {
  return (doc as { [REMEMBERED]?: true })[REMEMBERED] === true;
}

/** What `bucketCheck` compares besides the id. `null` also finds a Bucket that never had the field. */
function checkedState(bucket: BucketDoc) {
  return {
    generation: bucket.generation,
    webhook_generation: bucket.webhook_generation ?? null,
    write_key_hash: bucket.write_key_hash,
  };
}

/** Whether two reads of a Bucket agree on everything `bucketCheck` compares. */
export function sameBucketState(a: BucketDoc, b: BucketDoc): boolean {
  return a._id.equals(b._id) && isDeepStrictEqual(checkedState(a), checkedState(b));
}

/** The check a write sends before its commit when `bucket` came from memory; undefined for a Bucket the request read. */
export function bucketCheck(db: Db, bucket: BucketDoc | undefined): BatchWrite | undefined {
  if (bucket === undefined || !isRemembered(bucket)) return undefined;
  return foundOrStop(bucketsCollection(db), { _id: bucket._id, ...checkedState(bucket) });
}

/** For a write that cannot put the check in its own command: the check, alone (PreconditionFailed when it fails). */
export async function checkRememberedBucket(db: Db, bucket: BucketDoc): Promise<void> {
  const check = bucketCheck(db, bucket);
  if (check) await checkAlone(check);
}
