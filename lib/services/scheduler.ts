import { randomBytes } from 'node:crypto';
import type { Db, Filter } from 'mongodb';
import { objectsCollection, publishedObjectsCollection, type ObjectDoc } from '../db/collections.js';
import { bumpGeneration } from './bucket-generation.js';
import { putLive } from './objects.js';
import { recordRevision } from './revisions.js';

const LEASE_MS = 60_000;
const MAX_PER_TICK = 100;

type Job = 'publish' | 'unpublish';

export interface SchedulerOptions {
  now?: () => Date;
  intervalMs: number;
  log?: (msg: string) => void;
}

/**
 * Publishes (and withdraws) Objects whose publish_at (unpublish_at) has come. Safe with many
 * app processes on one database: a process claims an Object with one atomic update (a lease
 * that expires, so a crash mid-way only delays the work) and finishes it only while it still
 * holds the claim, so each due Object is published once. Work that fell due while no process
 * ran is done at the first tick, which runs at start.
 */
export class Scheduler {
  private readonly id = randomBytes(8).toString('hex');
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: Db,
    private readonly opts: SchedulerOptions,
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  start(): void {
    if (this.opts.intervalMs <= 0 || this.timer) return;
    const run = () => {
      this.running ??= this.tick()
        .catch((err: unknown) => {
          this.opts.log?.(`scheduler: ${err instanceof Error ? err.message : String(err)}`);
          return 0;
        })
        .finally(() => {
          this.running = null;
        });
    };
    run();
    this.timer = setInterval(run, this.opts.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Does every due job it can claim; returns how many it completed. */
  async tick(): Promise<number> {
    let done = 0;
    for (const job of ['publish', 'unpublish'] as const) {
      for (let i = 0; i < MAX_PER_TICK; i++) {
        const claimed = await this.claim(job);
        if (!claimed) break;
        if (await this.complete(job, claimed)) done++;
      }
    }
    return done;
  }

  private async claim(job: Job): Promise<ObjectDoc | null> {
    const now = this.now();
    const field = job === 'publish' ? 'publish_at' : 'unpublish_at';
    const due = {
      [field]: { $lte: now },
      $or: [{ schedule_claim: null }, { 'schedule_claim.until': { $lt: now } }],
    } as Filter<ObjectDoc>;
    return objectsCollection(this.db).findOneAndUpdate(
      due,
      { $set: { schedule_claim: { by: this.id, until: new Date(now.getTime() + LEASE_MS) } } },
      { returnDocument: 'after' },
    );
  }

  private async complete(job: Job, doc: ObjectDoc): Promise<boolean> {
    const now = this.now();
    const next: ObjectDoc = { ...doc, modified_at: now, schedule_claim: null };
    if (job === 'publish') {
      Object.assign(next, { status: 'published', published_at: doc.publish_at ?? now, publish_at: null });
    } else {
      Object.assign(next, { status: 'draft', unpublish_at: null });
    }
    // Finishing is conditional on still holding the claim: a process whose lease lapsed and
    // was taken over does nothing more.
    const owned = await objectsCollection(this.db).replaceOne({ _id: doc._id, 'schedule_claim.by': this.id }, next);
    if (owned.matchedCount === 0) return false;
    if (job === 'publish') {
      await putLive(this.db, next);
      await recordRevision(this.db, next, 'scheduled-publish', now);
    } else {
      await publishedObjectsCollection(this.db).deleteOne({ _id: doc._id });
    }
    await bumpGeneration(this.db, doc.bucket_id);
    return true;
  }
}
