import type { Collection, Db, ObjectId } from 'mongodb';
import { readOptions } from '../db/service-db.js';
import { monthOf } from '../config/plan.js';

/** Requests a Bucket was served in one calendar month (UTC), summed over every process. */
export interface RequestCountDoc {
  /** "<bucket id>:<YYYY-MM>" */
  _id: string;
  bucket_id: ObjectId;
  month: string;
  requests: number;
}

export const REQUEST_COUNTS_COLLECTION = 'bucket_requests';

export function requestCountsCollection(db: Db): Collection<RequestCountDoc> {
  return db.collection<RequestCountDoc>(REQUEST_COUNTS_COLLECTION);
}

interface Tally {
  bucketId: ObjectId;
  month: string;
  /** The month's total in the database, as last read or written by this process. */
  total: number;
  /** When `total` was learnt (0: never). */
  learntAt: number;
  /** Served here and not yet added to the database. */
  unsent: number;
  /** Being added right now. */
  sending: number;
  flushTimer: NodeJS.Timeout | null;
  refreshing: Promise<void> | null;
}

export interface MonthlyOptions {
  /** How long served requests gather before one $inc adds them (default 1 s). */
  flushMs?: number;
  /** A total older than this is read again before a limited Bucket is admitted (default 5 s). */
  staleMs?: number;
  now?: () => Date;
}

/**
 * Counts every request a Bucket is served, per calendar month, without a database write per
 * request: served requests gather in the process and one `$inc` per Bucket adds them at most
 * `flushMs` later, which also brings back the total of every process. A Bucket with a monthly
 * limit is refused once that total plus this process's unsent requests reaches it; other
 * processes' requests of the last `flushMs` are not seen yet, so all processes together may
 * pass the limit by that much (never by more than a second's traffic). The count is of requests
 * served, exact once flushed; a process killed loses its last unsent second.
 */
export class MonthlyRequests {
  private readonly tallies = new Map<string, Tally>();
  private readonly flushMs: number;
  private readonly staleMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly db: Db,
    options: MonthlyOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 1000;
    this.staleMs = options.staleMs ?? 5000;
    this.now = options.now ?? (() => new Date());
  }

  /** Counts one request (when `counted`) unless the month's `limit` (null: none) is used; false when refused. */
  async admit(bucketId: ObjectId, limit: number | null, counted = true): Promise<boolean> {
    const at = this.now();
    const tally = this.tallyOf(bucketId, monthOf(at));
    if (limit !== null) {
      if (at.getTime() - tally.learntAt > this.staleMs) await this.refresh(tally);
      if (tally.total + tally.sending + tally.unsent >= limit) return false;
    }
    if (!counted) return true;
    tally.unsent++;
    tally.flushTimer ??= setTimeout(() => void this.flush(tally), this.flushMs).unref();
    return true;
  }

  /** The month's total with this process's unsent requests added first (for the usage route). */
  async total(bucketId: ObjectId): Promise<{ month: string; requests: number }> {
    const month = monthOf(this.now());
    const tally = this.tallies.get(keyOf(bucketId, month));
    if (tally) await this.flush(tally);
    const doc = await requestCountsCollection(this.db).findOne({ _id: keyOf(bucketId, month) }, readOptions(this.db));
    return { month, requests: doc?.requests ?? 0 };
  }

  private tallyOf(bucketId: ObjectId, month: string): Tally {
    const key = keyOf(bucketId, month);
    let tally = this.tallies.get(key);
    if (!tally) {
      this.forgetIdle();
      tally = { bucketId, month, total: 0, learntAt: 0, unsent: 0, sending: 0, flushTimer: null, refreshing: null };
      this.tallies.set(key, tally);
    }
    return tally;
  }

  /** Past 1,000 Buckets, tallies with nothing to send are dropped: a limited Bucket's is read again when it comes back. */
  private forgetIdle(): void {
    if (this.tallies.size < 1000) return;
    for (const [key, t] of this.tallies) {
      if (t.unsent === 0 && t.sending === 0 && !t.refreshing) this.tallies.delete(key);
    }
  }

  private refresh(tally: Tally): Promise<void> {
    tally.refreshing ??= requestCountsCollection(this.db)
      .findOne({ _id: keyOf(tally.bucketId, tally.month) }, readOptions(this.db))
      .then((doc) => {
        // A flush that ended meanwhile may have learnt a newer total.
        tally.total = Math.max(tally.total, doc?.requests ?? 0);
        tally.learntAt = this.now().getTime();
      })
      .finally(() => {
        tally.refreshing = null;
      });
    return tally.refreshing;
  }

  private async flush(tally: Tally): Promise<void> {
    if (tally.flushTimer) clearTimeout(tally.flushTimer);
    tally.flushTimer = null;
    const n = tally.unsent;
    if (n === 0) return;
    tally.unsent = 0;
    tally.sending += n;
    try {
      const doc = await requestCountsCollection(this.db).findOneAndUpdate(
        { _id: keyOf(tally.bucketId, tally.month) },
        { $inc: { requests: n }, $setOnInsert: { bucket_id: tally.bucketId, month: tally.month } },
        { upsert: true, returnDocument: 'after' },
      );
      tally.total = doc?.requests ?? tally.total + n;
      tally.learntAt = this.now().getTime();
    } catch {
      // Kept for the next flush (the database may be away for a while): the count is not lost.
      tally.unsent += n;
      tally.flushTimer ??= setTimeout(() => void this.flush(tally), this.flushMs * 5).unref();
    } finally {
      tally.sending -= n;
    }
  }
}

function keyOf(bucketId: ObjectId, month: string): string {
  return `${bucketId.toHexString()}:${month}`;
}
