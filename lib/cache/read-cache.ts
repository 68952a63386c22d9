/**
 * Serialized read responses, bounded by total bytes and evicted least-recently-used first.
 * Keys start with the Bucket id and its write generation (see bucket-generation.ts): a write
 * in any process bumps the generation stored with the Bucket, so stale entries are never read
 * again and simply age out.
 */
export class ReadCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): string | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    // Re-insert so Map order tracks recency.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  set(key: string, body: string): void {
    const size = body.length * 2;
    if (size > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.bytes -= old.length * 2;
      this.entries.delete(key);
    }
    this.entries.set(key, body);
    this.bytes += size;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.length * 2;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get usedBytes(): number {
    return this.bytes;
  }
}
