/**
 * Results of reads, bounded by total bytes and evicted least-recently-used first: serialized
 * responses (the default) or smaller values such as the total of a list. Keys start with the
 * Bucket id and its write generation (see bucket-generation.ts): a write in any process bumps
 * the generation stored with the Bucket, so stale entries are never read again and simply age out.
 * Not lru-cache: it needs every size to be a positive integer, and an empty body here counts 0.
 */
export class ReadCache<V = string> {
  private readonly entries = new Map<string, V>();
  private bytes = 0;
  /** Lookups answered from the cache and lookups that were not, since the cache was made (for /metrics). */
  hits = 0;
  misses = 0;

  /** `sizeOf` is what an entry counts against the bound; by default its body's. */
  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (key: string, value: V) => number = bodySize,
  ) {}

  /** Entries held now, and the memory their bodies take. */
  get usage(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Re-insert so Map order tracks recency.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  /** Stores `value` as the newest entry; an entry over a quarter of the bound is not kept at all. */
  set(key: string, value: V): void {
    // The new value supersedes the old one even when it is too large to keep itself.
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.bytes -= this.sizeOf(key, old);
      this.entries.delete(key);
    }
    const size = this.sizeOf(key, value);
    if (size > this.maxBytes / 4) return;
    this.entries.set(key, value);
    this.bytes += size;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= this.sizeOf(k, v);
    }
  }
}

/** Strings are UTF-16 in memory: two bytes per code unit. */
function bodySize(_key: string, body: unknown): number {
  return typeof body === 'string' ? body.length * 2 : 0;
}
