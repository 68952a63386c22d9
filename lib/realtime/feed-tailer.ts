import type { Db } from 'mongodb';
import { readOptions } from '../db/service-db.js';
import { feedCollection, type FeedDoc } from '../events/feed-collection.js';
import { horizonId } from '../events/feed-collection.js';

/** Hears every event of every Bucket the tailer reads, in feed id order. */
export type FeedListener = (docs: readonly FeedDoc[]) => void;

export interface TailerSettings {
  pollMs: number;
  settleMs: number;
}

/** Events read per query; a full page is followed at once by the next. */
const PAGE = 500;

/**
 * One per app process: reads the feed collection with one query every poll, whatever the number
 * of open streams, and hands what it read to every stream (each picks its Bucket's events). It
 * reads only while a stream is open, and only events past its horizon (lib/events/feed-collection.ts says why).
 * No change streams: the embedded engine has none, and a tailing read works on every deployment.
 */
export class FeedTailer {
  private readonly listeners = new Set<FeedListener>();
  /** The id after which the next read starts; null while no stream is open. */
  private cursor: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Counts the starts, so a read of a run stopped meanwhile changes nothing. */
  private run = 0;

  constructor(
    private readonly db: Db,
    private readonly settings: TailerSettings,
    private readonly log: (msg: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Adds `listener`; returns the id it will hear every later event after. That position and the
   * first delivery to it are one step apart (`read` updates the cursor and delivers together),
   * so a stream that reads its backlog up to it and then takes what it hears misses nothing.
   */
  subscribe(listener: FeedListener): string {
    this.listeners.add(listener);
    if (this.cursor === null) {
      this.cursor = horizonId(this.now() - this.settings.settleMs);
      this.run += 1;
      this.schedule(this.run, this.settings.pollMs);
    }
    return this.cursor;
  }

  unsubscribe(listener: FeedListener): void {
    this.listeners.delete(listener);
    if (this.listeners.size > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.cursor = null;
  }

  get streams(): number {
    return this.listeners.size;
  }

  private schedule(run: number, ms: number): void {
    this.timer = setTimeout(() => void this.read(run), ms);
    // Open streams keep the server, not the timer, alive.
    this.timer.unref();
  }

  private async read(run: number): Promise<void> {
    const from = this.cursor;
    if (from === null || run !== this.run) return;
    let full = false;
    try {
      const horizon = horizonId(this.now() - this.settings.settleMs);
      if (horizon > from) {
        const docs = await feedCollection(this.db)
          .find({ _id: { $gt: from, $lt: horizon } }, readOptions(this.db))
          .sort({ _id: 1 })
          .limit(PAGE)
          .toArray();
        // Stopped (and maybe started again) while reading: a new run has its own cursor.
        if (run !== this.run || this.cursor === null) return;
        full = docs.length === PAGE;
        this.cursor = full ? (docs[docs.length - 1]?._id ?? horizon) : horizon;
        if (docs.length > 0) for (const listener of this.listeners) listener(docs);
      }
    } catch (err) {
      this.log(`change feed read failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (run === this.run && this.cursor !== null) this.schedule(run, full ? 0 : this.settings.pollMs);
  }
}
