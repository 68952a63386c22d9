/**
 * Serialized read responses, bounded by total bytes and evicted least-recently-used first.
 * Keys start with the Bucket id and its write generation (see bucket-generation.ts): a write
 * in any process bumps the generation stored with the Bucket, so stale entries are never read
 * again and simply age out.
 */
export class ReadCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;
  /** Lookups answered from the cache and lookups that were not, since the cache was made (for /metrics). */
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  /** Entries held now, and the memory their bodies take. */
  get usage(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  get(key: string): string | undefined {
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

  /** Stores `body` as the newest entry; a body over a quarter of the bound is not kept at all. */
  set(key: string, body: string): void {
    // The new body supersedes the old one even when it is too large to keep itself.
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.bytes -= sizeOf(old);
      this.entries.delete(key);
    }
    const size = sizeOf(body);
    if (size > this.maxBytes / 4) return;
    this.entries.set(key, body);
    this.bytes += size;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= sizeOf(v);
    }
  }
}

/** Strings are UTF-16 in memory: two bytes per code unit. */
function sizeOf(body: string): number {
  return body.length * 2;
}
