import { ObjectId, type Document } from 'mongodb';
import type { SortSpec } from '../query/sort.js';
import { ReadCache } from './read-cache.js';
import { compareSortKeys, sortKeyOf, type SortFields, type SortKey } from './sort-keys.js';
import { SortColumns, SortColumnsBuilder } from './sort-columns.js';

/** Bytes of one ObjectId. */
const ID_BYTES = 12;
/** What one entry costs besides its ids: the object, the Map slot and the key's string header. */
const ENTRY_OVERHEAD_BYTES = 128;

/** The bytes of the `i`th id of ids packed 12 bytes each. */
function packedId(ids: Buffer, i: number): Buffer {
  return ids.subarray(i * ID_BYTES, (i + 1) * ID_BYTES);
}

/** `ids` packed 12 bytes each. */
export function packIds(ids: readonly ObjectId[]): Buffer {
  const packed = Buffer.allocUnsafe(ids.length * ID_BYTES);
  ids.forEach((id, i) => {
    packed.set(id.id, i * ID_BYTES);
  });
  return packed;
}

/**
 * Every match of a list, in its sort order, as ids packed 12 bytes each: a page is a slice of it
 * and the total its length. Packed, 20,000 matches take 240 kB where ObjectId objects would take
 * several megabytes. Beside each id its sort key (sort-keys.ts) when every match has one: then
 * the order can follow a write instead of being read again (`moved`).
 */
export class ListOrder {
  private constructor(
    private readonly ids: Buffer,
    private readonly keys: SortColumns | null,
  ) {}

  /** The order of `docs` as read (sorted by `fields`), each with `_id` and, when `fields` is given, the sort fields. */
  static of(docs: readonly Document[], fields?: SortFields): ListOrder {
    const keys = fields ? docs.map((doc) => sortKeyOf(doc, fields)) : [];
    const keyed = fields !== undefined && keys.every((k): k is SortKey => k !== null) ? keys : null;
    return ListOrder.from(
      docs.map((doc) => doc._id as ObjectId),
      keyed && fields ? SortColumns.of(keyed, fields) : null,
    );
  }

  private static from(ids: readonly ObjectId[], keys: SortColumns | null): ListOrder {
    return new ListOrder(packIds(ids), keys);
  }

  get length(): number {
    return this.ids.length / ID_BYTES;
  }

  get bytes(): number {
    return this.ids.length + (this.keys?.bytes ?? 0);
  }

  /** Whether the order can follow writes (`moved`): every match has a sort key. */
  get followable(): boolean {
    return this.keys !== null;
  }

  /** Up to `count` ids from position `from` (≥ 0) on. */
  slice(from: number, count: number): ObjectId[] {
    const out: ObjectId[] = [];
    for (let i = from; i < Math.min(from + count, this.length); i++) out.push(this.idAt(i));
    return out;
  }

  private idBytesAt(i: number): Buffer {
    return packedId(this.ids, i);
  }

  private idAt(i: number): ObjectId {
    return new ObjectId(this.idBytesAt(i));
  }

  /** Where `id` sits in the order, or -1 when it is not a match. */
  indexOf(id: ObjectId): number {
    const needle = id.id;
    for (let at = this.ids.indexOf(needle); at >= 0; at = this.ids.indexOf(needle, at + 1)) {
      // A match straddling two ids is not one.
      if (at % ID_BYTES === 0) return at / ID_BYTES;
    }
    return -1;
  }

  /**
   * The order after writes of the Objects `written`: each taken out, and those of them that still
   * match (`matching`: each with `_id` and the sort fields, as read now) put back where their sort
   * keys go. Undefined when this order has no keys or a match's key is not one known here.
   */
  moved(written: readonly ObjectId[], matching: readonly Document[], fields: SortFields): ListOrder | undefined {
    const kept = this.keys;
    if (!kept) return undefined;
    const back: { id: ObjectId; key: SortKey }[] = [];
    for (const doc of matching) {
      const key = sortKeyOf(doc, fields);
      if (!key) return undefined;
      back.push({ id: doc._id as ObjectId, key });
    }
    back.sort((a, b) => compareSortKeys(a.key, b.key, fields));
    // Where each goes: before the first entry whose key sorts after its own. The written entries
    // still stand at their old places, in order, so they bound the search as well as any. Keys end
    // with the unique _id: no ties, but for an entry and its own old place, which it then precedes.
    const places: number[] = [];
    let low = 0;
    for (const entry of back) {
      let high = this.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (compareSortKeys(kept.keyAt(mid, this.idBytesAt(mid)), entry.key, fields) < 0) low = mid + 1;
        else high = mid;
      }
      places.push(low);
    }
    const removed = this.placesOf(written);
    // The runs between those places are copied whole (ids and key columns), so a few hundred
    // writes into an order of 50,000 cost a few hundred copies, not one object per entry.
    const size = this.length - removed.length + back.length;
    const ids = Buffer.allocUnsafe(size * ID_BYTES);
    const keys = new SortColumnsBuilder(fields, size);
    let length = 0;
    let from = 0;
    const copyUpTo = (to: number) => {
      if (to <= from) return;
      this.ids.copy(ids, length * ID_BYTES, from * ID_BYTES, to * ID_BYTES);
      keys.copy(kept, from, to);
      length += to - from;
      from = to;
    };
    let r = 0;
    let b = 0;
    while (r < removed.length || b < back.length) {
      const nextRemoved = removed[r] ?? Infinity;
      const nextBack = places[b] ?? Infinity;
      if (nextBack <= nextRemoved) {
        copyUpTo(nextBack);
        const entry = back[b++] as { id: ObjectId; key: SortKey };
        ids.set(entry.id.id, length * ID_BYTES);
        keys.add(entry.key);
        length++;
      } else {
        copyUpTo(nextRemoved);
        from = nextRemoved + 1;
        r++;
      }
    }
    copyUpTo(this.length);
    return new ListOrder(ids, keys.done());
  }

  /** The places of `written` in this order, ascending (those not in it have none). */
  private placesOf(written: readonly ObjectId[]): number[] {
    const wanted = new Set(written.map((id) => id.toHexString()));
    // The last four bytes of an ObjectId (its counter) tell most ids apart without building any.
    const tails = new Set(written.map((id) => Buffer.from(id.id).readUInt32BE(8)));
    const places: number[] = [];
    for (let i = 0; i < this.length; i++) {
      if (tails.has(this.ids.readUInt32BE(i * ID_BYTES + 8)) && wanted.has(this.idAt(i).toHexString())) places.push(i);
    }
    return places;
  }
}

/** One log of a type's noted writes: the ids it holds, packed (packIds), oldest first, and how many were ever noted. */
export interface NotedPart {
  ids: Buffer;
  count: number;
}

/**
 * The notes of a type's writes, in parts (one on the Bucket; several in their own documents,
 * lib/cache/bucket-generation.ts), and how far the read reaches: for notes on the Bucket their count,
 * for the type's write notes the type's generation in the Bucket read before them.
 */
export interface NotesRead {
  parts: readonly NotedPart[];
  reach: number;
  /** At most how many of each part's last ids were read: a part holding fewer was read whole. */
  tail: number;
}

/** How many writes each part of `notes` noted ever. */
export function notedCounts(notes: NotesRead): number[] {
  return notes.parts.map((part) => part.count);
}

/** The distinct Objects of the last `since[i]` writes of each part, or undefined when a part holds fewer. */
export function lastNoted(notes: NotesRead, since: readonly number[]): ObjectId[] | undefined {
  if (since.length !== notes.parts.length) return undefined;
  const distinct = new Map<string, ObjectId>();
  for (const [i, part] of notes.parts.entries()) {
    const held = part.ids.length / ID_BYTES;
    const n = since[i] ?? -1;
    if (n < 0 || n > held) return undefined;
    for (let at = held - n; at < held; at++) {
      const id = packedId(part.ids, at);
      distinct.set(id.toString('hex'), new ObjectId(id));
    }
  }
  return [...distinct.values()];
}

/** Where a type's writes are noted: on the Bucket (writes sent apart) or in their own document (in one command). */
export type NotesKind = 'bucket' | 'own';

function notesKey(kind: NotesKind, bucketId: ObjectId, type: string): string {
  return `${kind}:${bucketId.toHexString()}:${type}`;
}

/** A kept order and the state of the Bucket it was read (or followed) at. */
export interface KeptOrder {
  order: ListOrder;
  /** The list's generation then (lib/cache/bucket-generation.ts): the order is current while it is the same. */
  generation: string;
  /** The Bucket's own generation then: any write but an Object version write moves it, and the order must be read again. */
  bucketGeneration: number;
  /** The one type the list shows, and its generation then: version writes of that type alone can be followed. */
  type: string | null;
  typeGeneration: number;
  /** The type's count of writes noted on the Bucket then (BucketDoc.recent_write_counts). */
  writeCount: number;
  /**
   * The counts of the type's own write notes, part by part, read before the order was
   * (WriteNotesDoc.count): every Object written since is noted after them. Unknown when none were.
   */
  notesAt: readonly number[] | undefined;
}

/**
 * The orders of Object lists, by list (Bucket, collection, filter, sort), with the Bucket state
 * each was read at: a write through any process moves a generation, so a kept order is not used
 * as it is after the data it sorted changed (object-list-order.ts follows or reads it again).
 */
export class ListOrders {
  private readonly orders: ReadCache<KeptOrder>;
  /** Lists read before (at any state), and those found to have more matches than `maxIds`. */
  private readonly reads: ReadCache<'read' | 'too long'>;
  /**
   * The notes of a type's writes as last read, by kind, Bucket and type: lists read at one state
   * (the pages of one list, read one after the other) follow the same writes, and one read of the
   * notes serves them all.
   */
  private readonly notesRead: ReadCache<NotesRead>;
  /** Orders being followed or read, by state and list. */
  private readonly making = new Map<string, Promise<ListOrder | undefined>>();

  constructor(
    maxBytes: number,
    /** Lists with more matches than this are not kept (0: none is). */
    readonly maxIds: number,
  ) {
    this.orders = new ReadCache<KeptOrder>(
      maxBytes,
      (key, kept) => key.length * 2 + kept.order.bytes + ENTRY_OVERHEAD_BYTES,
    );
    this.reads = new ReadCache<'read' | 'too long'>(maxBytes / 16, (key) => key.length * 2 + ENTRY_OVERHEAD_BYTES);
    this.notesRead = new ReadCache<NotesRead>(
      maxBytes / 16,
      (key, notes) => key.length * 2 + notes.parts.reduce((n, part) => n + part.ids.length, 0) + ENTRY_OVERHEAD_BYTES,
    );
  }

  /** The notes of `type` last read, if any (`reach`: if they reach at least that far). */
  notes(kind: NotesKind, bucketId: ObjectId, type: string, reach = 0): NotesRead | undefined {
    const known = this.notesRead.get(notesKey(kind, bucketId, type));
    return known && known.reach >= reach ? known : undefined;
  }

  /** Keeps `read` as the notes of `type`, unless those kept already reach further. */
  keepNotes(kind: NotesKind, bucketId: ObjectId, type: string, read: NotesRead): void {
    const key = notesKey(kind, bucketId, type);
    const known = this.notesRead.get(key);
    const total = (notes: NotesRead) => notedCounts(notes).reduce((a, b) => a + b, 0);
    const further = (x: NotesRead, y: NotesRead) =>
      x.reach !== y.reach ? x.reach > y.reach : total(x) !== total(y) ? total(x) > total(y) : x.tail >= y.tail;
    if (known && further(known, read)) return;
    this.notesRead.set(key, read);
  }

  /** The order of the list `key` at `generation` from `make`, made once for all who ask while it is made. */
  shared(key: string, generation: string, make: () => Promise<ListOrder | undefined>): Promise<ListOrder | undefined> {
    const at = `${generation}\u0000${key}`;
    const running = this.making.get(at);
    if (running) return running;
    const made = make().finally(() => this.making.delete(at));
    this.making.set(at, made);
    return made;
  }

  /** Notes a read of the list `key`; what was noted of it before (undefined: never read). */
  noteRead(key: string): 'read' | 'too long' | undefined {
    const before = this.reads.get(key);
    if (before === undefined) this.reads.set(key, 'read');
    return before;
  }

  /** Notes that the list `key` had more matches than `maxIds`. */
  noteTooLong(key: string): void {
    this.reads.set(key, 'too long');
  }

  /** The key of a list: `listKey` names its Bucket, collection and filter (ListTotals.listKey). */
  static key(listKey: string, sort: SortSpec & { random: false }): string {
    return `${listKey}:${JSON.stringify(sort.fields)}`;
  }

  get(key: string): KeptOrder | undefined {
    return this.orders.get(key);
  }

  /** Keeps `kept` unless what is kept is of a later state of the same type (a slower reader's). */
  set(key: string, kept: KeptOrder): void {
    const now = this.orders.get(key);
    if (
      now &&
      now.type !== null &&
      now.type === kept.type &&
      now.bucketGeneration === kept.bucketGeneration &&
      now.typeGeneration > kept.typeGeneration
    )
      return;
    this.orders.set(key, kept);
  }
}
