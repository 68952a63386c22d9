import { ObjectId } from 'mongodb';
import type { SortSpec } from '../query/sort.js';
import { ReadCache } from './read-cache.js';

/** Bytes of one ObjectId. */
const ID_BYTES = 12;
/** What one entry costs besides its ids: the object, the Map slot and the key's string header. */
const ENTRY_OVERHEAD_BYTES = 128;

/**
 * Every match of a list, in its sort order, as ids packed 12 bytes each: a page is a slice of it
 * and the total its length. Packed, 20,000 matches take 240 kB where ObjectId objects would take
 * several megabytes.
 */
export class ListOrder {
  private constructor(private readonly ids: Buffer) {}

  static of(ids: readonly ObjectId[]): ListOrder {
    const packed = Buffer.allocUnsafe(ids.length * ID_BYTES);
    ids.forEach((id, i) => {
      packed.set(id.id, i * ID_BYTES);
    });
    return new ListOrder(packed);
  }

  get length(): number {
    return this.ids.length / ID_BYTES;
  }

  get bytes(): number {
    return this.ids.length;
  }

  /** Up to `count` ids from position `from` (≥ 0) on. */
  slice(from: number, count: number): ObjectId[] {
    const out: ObjectId[] = [];
    for (let i = from; i < Math.min(from + count, this.length); i++) {
      out.push(new ObjectId(this.ids.subarray(i * ID_BYTES, (i + 1) * ID_BYTES)));
    }
    return out;
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
}

/**
 * The orders of Object lists, kept per Bucket generation like their totals (list-totals.ts): a
 * write through any process bumps the generation, so a kept order is never read after the data
 * it sorted changed. The key is the list's total key (Bucket, generation, collection, filter)
 * with its sort.
 */
export class ListOrders {
  private readonly orders: ReadCache<ListOrder>;

  constructor(
    maxBytes: number,
    /** Lists with more matches than this are not kept (0: none is). */
    readonly maxIds: number,
  ) {
    this.orders = new ReadCache<ListOrder>(maxBytes, (key, o) => key.length * 2 + o.bytes + ENTRY_OVERHEAD_BYTES);
  }

  static key(totalKey: string, sort: SortSpec & { random: false }): string {
    return `${totalKey}:${JSON.stringify(sort.fields)}`;
  }

  get(key: string): ListOrder | undefined {
    return this.orders.get(key);
  }

  set(key: string, order: ListOrder): void {
    this.orders.set(key, order);
  }
}
