import { HttpError } from '../errors/http-errors.js';

/** How long a refused client waits before it tries again: streams close at the pace of people leaving pages. */
const RETRY_AFTER_S = 10;

export interface CapSettings {
  /** Open streams of one Bucket on this process; 0: no limit. */
  perBucket: number;
  /** Open streams from one client address on this process; 0: no limit. */
  perAddress: number;
}

/**
 * This process's open streams, by Bucket and by client address, and what they sent: the caps
 * (429 past them) and the metrics read it. Per process, like every connection limit of the
 * server: N processes allow N times the caps.
 */
export class StreamCaps {
  private readonly byBucket = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();
  open = 0;
  sent = 0;

  constructor(private readonly settings: CapSettings) {}

  /** Counts a new stream, or refuses it 429 with Retry-After; returns the release of its place. */
  admit(bucket: string, address: string): () => void {
    const { perBucket, perAddress } = this.settings;
    if (perBucket > 0 && (this.byBucket.get(bucket) ?? 0) >= perBucket) {
      throw refused(`the bucket '${bucket}' has ${String(perBucket)} open event streams, the most allowed`);
    }
    if (perAddress > 0 && (this.byAddress.get(address) ?? 0) >= perAddress) {
      throw refused(`this client address has ${String(perAddress)} open event streams, the most allowed`);
    }
    add(this.byBucket, bucket, 1);
    add(this.byAddress, address, 1);
    this.open++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      add(this.byBucket, bucket, -1);
      add(this.byAddress, address, -1);
      this.open--;
    };
  }
}

function add(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

function refused(why: string): HttpError {
  return new HttpError(
    429,
    `Too many event streams: ${why}; retry after ${String(RETRY_AFTER_S)} seconds`,
    'rate_limited',
    {
      headers: { 'Retry-After': String(RETRY_AFTER_S) },
    },
  );
}
