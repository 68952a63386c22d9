import { LRUCache } from 'lru-cache';
import { BSON, type ObjectId } from 'mongodb';
import type { BucketDoc, ObjectDoc } from '../../db/collections.js';

/**
 * The latest version of each Object this process last wrote (created or edited), so its next
 * edit merges into it without reading it first (lib/objects/write/object-edit.ts): a repeated
 * edit of one Object is then one command, not two. The memo is a guess the edit's commit checks, as it checks any read:
 * the commit is conditional on the version's `modified_at` (and type), which every version write
 * of any process moves forward, so an edit over a version some other process (or a direct write)
 * replaced meanwhile writes nothing and reads the Object afresh.
 *
 * That check misses writers that change an Object without moving its `modified_at`; each is made
 * safe here (checked over every update of the objects collection in lib/):
 *
 * | writer                                   | field(s)                  | made safe by                              |
 * |------------------------------------------|---------------------------|-------------------------------------------|
 * | scheduler's claim and release            | `schedule_claim`          | left out of the memo (UNTRACKED), so the  |
 * | (lib/scheduling/scheduler.ts)            |                           | edit's $set/$unset never name it          |
 * | singleton switch of a type               | `singleton_key`           | left out (UNTRACKED); the switch also     |
 * | (lib/objects/write/singletons.ts)        |                           | bumps the Bucket's `generation`           |
 * | forgetting an expired Idempotency-Key    | `idempotency_key`         | left out (UNTRACKED), with its request    |
 * | (lib/objects/write/object-idempotency.ts)| (`idempotency_request`)   | hash                                      |
 * | step 3 of a version write, repair, a     | `pending`                 | left out (UNTRACKED), and a commit from   |
 * | write that died after its commit         |                           | the memo also requires no carried work    |
 * | (version-write.ts, delete-write.ts)      |                           | (`pending` absent), so owed work is done  |
 * |                                          |                           | first by the edit that then reads it      |
 * | Metafield key move, `$rename` of         | `metadata.<key>`          | the memo is kept per Bucket `generation`, |
 * | `metadata.<from>` (metafield-key-move.ts)|                           | which the move bumps before and after it  |
 * |                                          |                           | renames the Objects                       |
 * | Object type rename (object-type-rename.ts)| `type`                   | the generation as above; and every edit's |
 * |                                          |                           | commit names the type it read             |
 *
 * Every other write of the collection moves `modified_at`: version writes (creates, edits, the
 * scheduler's publish and withdrawal, imports, which write only versions newer than the Object's
 * last) and deletes' claims.
 *
 * The generation is the Bucket's as the request took it: read in this request, or taken from
 * memory and then checked by the write's own command (lib/cache/bucket-generation.ts), so
 * every process keys on what the database holds. A content field (like the metadata a key move
 * renames) cannot be left out, so an entry kept at another generation is not used.
 *
 * One per app (lib/app-state.ts): it names versions of one database only.
 */

/** Fields other writers change without moving `modified_at`: kept out of the memo, so an edit from it leaves them as they are. */
export const UNTRACKED = [
  'pending',
  'schedule_claim',
  'singleton_key',
  'idempotency_key',
  'idempotency_request',
] as const;

const untracked: ReadonlySet<string> = new Set(UNTRACKED);

/** What an edit takes to skip its read. */
export interface VersionMemoDeps {
  versions?: VersionMemo;
}

interface Kept {
  /** The Bucket's generation the version was written under. */
  generation: number;
  /** The version as BSON: each use gets its own copy, and nothing a caller does to one reaches the memo. */
  bytes: Uint8Array;
}

/** Objects kept at most, whatever their size. */
const MAX_ENTRIES = 10_000;

type BucketState = Pick<BucketDoc, '_id' | 'generation'>;

function keyOf(bucketId: ObjectId, objectId: string): string {
  return `${bucketId.toHexString()}:${objectId}`;
}

export class VersionMemo {
  private readonly kept: LRUCache<string, Kept>;

  /** `maxBytes`: the BSON size of all versions kept; the least recently used go first. */
  constructor(maxBytes: number, maxEntries = MAX_ENTRIES) {
    const size = Math.max(1, Math.floor(maxBytes));
    this.kept = new LRUCache<string, Kept>({
      max: maxEntries,
      maxSize: size,
      // A version larger than the whole budget is simply not kept.
      maxEntrySize: size,
      sizeCalculation: (value, key) => value.bytes.byteLength + key.length,
    });
  }

  /** Keeps `doc` as the latest version of its Object, written under `bucket`'s generation. */
  remember(bucket: BucketState, doc: ObjectDoc): void {
    const key = keyOf(bucket._id, doc._id.toHexString());
    const tracked = Object.fromEntries(Object.entries(doc).filter(([field]) => !untracked.has(field)));
    this.kept.set(key, { generation: bucket.generation, bytes: BSON.serialize(tracked) });
  }

  /** A copy of the version kept for Object `id`, if it was kept under `bucket`'s generation. */
  latest(bucket: BucketState, id: ObjectId): ObjectDoc | undefined {
    const key = keyOf(bucket._id, id.toHexString());
    const kept = this.kept.get(key);
    if (kept === undefined) return undefined;
    if (kept.generation !== bucket.generation) {
      this.kept.delete(key);
      return undefined;
    }
    return BSON.deserialize(kept.bytes) as ObjectDoc;
  }

  /** Whether `latest` would answer for Object `id` (hex, as a route names it). */
  holds(bucket: BucketState, id: string): boolean {
    return this.kept.peek(keyOf(bucket._id, id))?.generation === bucket.generation;
  }

  /** Drops the version kept for Object `id`: it was deleted, or another write replaced it. */
  forget(bucketId: ObjectId, id: ObjectId): void {
    this.kept.delete(keyOf(bucketId, id.toHexString()));
  }

  /** How many versions are kept, and their bytes (for tests of the bounds). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.kept.size, bytes: this.kept.calculatedSize };
  }
}
