import { randomBytes } from 'node:crypto';
import type { Filter } from 'mongodb';
import { objectsCollection, type ObjectDoc } from '../db/collections.js';
import type { EventDeps } from '../events/domain-events.js';
import { finishCarried, writeVersionWith } from '../objects/write/version-write.js';
import { versionUpdate } from '../objects/write/object-edit.js';
import { writeIfFound } from '../db/write-batch.js';

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
 * ran is done at the first tick, which runs at start. Completing a claim is an Object write like
 * any other (it emits object.published or object.unpublished), crash-safe as every version write is
 * (lib/objects/write/version-write.ts): a crash after its commit point is finished by repair, and one before it leaves the claim to lapse and the work to be redone.
 */
export class Scheduler {
  private readonly id = randomBytes(8).toString('hex');
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly deps: EventDeps,
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
    // The claim leaves modified_at as it is: edits from a kept version never write the field (version-memo.ts).
    return objectsCollection(this.deps.db).findOneAndUpdate(
      due,
      { $set: { schedule_claim: { by: this.id, until: new Date(now.getTime() + LEASE_MS) } } },
      { returnDocument: 'after' },
    );
  }

  private async complete(job: Job, doc: ObjectDoc): Promise<boolean> {
    // A crash may have left this Object out of step: its earlier write gets its live copy and
    // revision before this one records its own. Step order and why: see version-write.ts.
    await finishCarried(this.deps, doc);
    const now = this.now();
    const { pending: _owed, ...version } = doc;
    const next: ObjectDoc = { ...version, modified_at: now, schedule_claim: null };
    if (job === 'publish') {
      Object.assign(next, { status: 'published', published_at: doc.publish_at ?? now, publish_at: null });
    } else {
      Object.assign(next, { status: 'draft', unpublish_at: null });
    }
    const owned = {
      _id: doc._id,
      bucket_id: doc.bucket_id,
      'schedule_claim.by': this.id,
      modified_at: doc.modified_at,
    };
    const written = await writeVersionWith(
      { ...this.deps, request: null },
      {
        objectId: doc._id,
        bucketId: doc.bucket_id,
        at: now,
        reason: job === 'publish' ? 'scheduled-publish' : 'scheduled-unpublish',
        withdraw: job === 'unpublish',
        doc: next,
        // Conditional on still holding the claim (a process whose lease lapsed and was taken over
        // writes nothing more) and on the version claimed: an edit that landed since (which copies
        // the claim along) is not overwritten, and what it left is judged at the next tick (a
        // draft-only account's edit has cleared publish_at: see object-edit.ts). It fails instead
        // of matching nothing, so its follow-ups, in the same command, go only with it.
        commit: (work) => writeIfFound(objectsCollection(this.deps.db), owned, versionUpdate(doc, next, work)),
      },
    );
    if (written === null) await this.release(doc);
    return written !== null;
  }

  /** Gives a claim back at once, so the next tick need not wait out its lease. */
  private async release(doc: ObjectDoc): Promise<void> {
    await objectsCollection(this.deps.db).updateOne(
      { _id: doc._id, 'schedule_claim.by': this.id },
      { $set: { schedule_claim: null } },
    );
  }
}
