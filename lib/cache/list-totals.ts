import { BSON, type Document } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { ReadCache } from './read-cache.js';

/** What one entry costs besides its key: the number, the Map slot and the string header. */
const ENTRY_OVERHEAD_BYTES = 64;

/**
 * The total of a list (the count of every match of its filter), kept per generation of what it
 * reads (its type's, or the Bucket's Objects'): a write through any process bumps that generation, so a kept total is never read after the data
 * it counted changed, and a list read again at the same generation needs no second scan to count.
 * Keys hold the filter in canonical Extended JSON (types kept: a date and its ISO string differ).
 */
export class ListTotals {
  private readonly totals: ReadCache<number>;

  constructor(maxBytes: number) {
    this.totals = new ReadCache<number>(maxBytes, (key) => key.length * 2 + ENTRY_OVERHEAD_BYTES);
  }

  /** The key of `filter` on `collection` of `bucket` at any generation (a kept order's, list-orders.ts). */
  static listKey(bucket: BucketDoc, collection: string, filter: Document): string {
    return `${bucket._id.toHexString()}:${collection}:${BSON.EJSON.stringify(filter, { relaxed: false })}`;
  }

  /**
   * `listKey` at `generation` (lib/cache/bucket-generation.ts): the key of a total. The filter is
   * written out once per read for both keys.
   */
  static keyAt(listKey: string, generation: string): string {
    return `${listKey}@${generation}`;
  }

  get(key: string): number | undefined {
    return this.totals.get(key);
  }

  set(key: string, total: number): void {
    this.totals.set(key, total);
  }
}
