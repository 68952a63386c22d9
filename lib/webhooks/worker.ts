import { randomBytes } from 'node:crypto';
import type { Db, ObjectId } from 'mongodb';
import type { WebhookSettings } from '../config.js';
import { attemptDelivery } from './attempt.js';
import {
  deliveriesCollection,
  webhooksCollection,
  type AttemptDoc,
  type DeliveryDoc,
  type WebhookDoc,
} from './collections.js';
import { PING } from './events.js';
import { recordOutcome } from './outcome.js';
import type { Lookup } from './resolve.js';
import { createAgents, type Agents } from './send.js';

/** Due deliveries listed per query, per lane: enough to keep every lane busy between queries. */
const BATCH_PER_LANE = 4;

function shuffled<T>(items: T[]): T[] {
  return items
    .map((item) => ({ item, key: Math.random() }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);
}

export interface WorkerOptions {
  log?: (msg: string) => void;
  now?: () => Date;
  /** In [0, 1): the jitter of retry waits. */
  random?: () => number;
  lookup?: Lookup;
}

/**
 * Sends the outbox. Every app process runs one (like the scheduler); any number share a database.
 * A delivery is claimed with one atomic update that pushes its due time to the end of a lease, so
 * exactly one worker holds it; the worker POSTs, then records the attempt and releases it, only
 * while its claim (a token) still stands. A worker killed mid-delivery leaves the claim to lapse,
 * after which any worker sends it again: delivery is at least once, and exactly once when no
 * worker dies or overruns its lease (the lease exceeds the request timeout; see config.ts).
 */
export class DeliveryWorker {
  private readonly id = randomBytes(8).toString('hex');
  private claims = 0;
  private attempts = 0;
  private readonly now: () => Date;
  private readonly agents: Agents;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly settings: WebhookSettings,
    private readonly opts: WorkerOptions = {},
  ) {
    this.now = opts.now ?? (() => new Date());
    this.agents = createAgents(settings.concurrency);
  }

  /** Attempts this worker has made since it was made. */
  get attempted(): number {
    return this.attempts;
  }

  /** Polls every WEBHOOK_POLL_MS, the first time now; pollMs 0 leaves the worker off. */
  start(): void {
    if (this.settings.pollMs <= 0 || this.timer) return;
    const run = () => {
      this.running ??= this.drain().finally(() => {
        this.running = null;
      });
    };
    run();
    this.timer = setInterval(run, this.settings.pollMs);
    this.timer.unref();
  }

  /** Lets the attempts in flight finish (each ends within the timeout), then closes its connections. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    this.agents.destroy();
  }

  /**
   * Attempts every due delivery it can claim, `concurrency` at a time; returns how many it
   * attempted. Due deliveries are listed a batch at a time (one sorted query per batch, not per
   * delivery), then claimed one by one by id, so two workers listing the same batch still send
   * each delivery once: the loser of a claim skips it. The order is shuffled for that reason.
   */
  async drain(): Promise<number> {
    let attempted = 0;
    try {
      while (!this.stopping) {
        const batch = await this.dueBatch();
        if (batch.length === 0) break;
        attempted += await this.sendBatch(batch);
      }
    } catch (err) {
      // Most likely the database is unreachable: draining stops until the next poll, and a
      // delivery held when it failed is sent again once its claim lapses.
      this.opts.log?.(`webhook delivery: ${err instanceof Error ? err.message : String(err)}`);
    }
    return attempted;
  }

  private async dueBatch(): Promise<Pick<DeliveryDoc, '_id' | 'webhook_id'>[]> {
    const due = await deliveriesCollection(this.db)
      .find({ status: 'pending', next_attempt_at: { $lte: this.now() } }, { projection: { _id: 1, webhook_id: 1 } })
      .sort({ next_attempt_at: 1 })
      .limit(this.settings.concurrency * BATCH_PER_LANE)
      .toArray();
    return shuffled(due);
  }

  private async sendBatch(batch: Pick<DeliveryDoc, '_id' | 'webhook_id'>[]): Promise<number> {
    // The batch's webhooks, read once: a change to one applies from the next batch on.
    const ids = [...new Map(batch.map((d) => [d.webhook_id.toHexString(), d.webhook_id])).values()];
    const found = await webhooksCollection(this.db)
      .find({ _id: { $in: ids } })
      .toArray();
    const webhooks = new Map(found.map((w) => [w._id.toHexString(), w]));
    const run: { next: number; attempted: number; failure: Error | null } = { next: 0, attempted: 0, failure: null };
    const lane = async () => {
      try {
        for (let item = batch[run.next++]; item && !this.stopping && !run.failure; item = batch[run.next++]) {
          const delivery = await this.claim(item._id);
          if (!delivery) continue;
          await this.process(delivery, webhooks.get(delivery.webhook_id.toHexString()) ?? null);
          run.attempted++;
          this.attempts++;
        }
      } catch (err) {
        run.failure ??= err instanceof Error ? err : new Error(String(err));
      }
    };
    await Promise.all(Array.from({ length: this.settings.concurrency }, lane));
    if (run.failure) throw run.failure;
    return run.attempted;
  }

  /** This delivery, if it is still due and no other worker took it since it was listed. */
  private async claim(id: ObjectId): Promise<DeliveryDoc | null> {
    const now = this.now();
    const until = new Date(now.getTime() + this.settings.leaseMs);
    return deliveriesCollection(this.db).findOneAndUpdate(
      { _id: id, status: 'pending', next_attempt_at: { $lte: now } },
      { $set: { claim: { token: `${this.id}-${++this.claims}`, until }, next_attempt_at: until } },
      { returnDocument: 'after' },
    );
  }

  private async process(delivery: DeliveryDoc, webhook: WebhookDoc | null): Promise<void> {
    let ok = false;
    let attempt: AttemptDoc;
    if (webhook && (webhook.enabled || delivery.type === PING)) {
      ({ ok, attempt } = await attemptDelivery(webhook, delivery, {
        allowPrivate: this.settings.allowPrivate,
        timeoutMs: this.settings.timeoutMs,
        agents: this.agents,
        now: this.now,
        ...(this.opts.lookup && { lookup: this.opts.lookup }),
      }));
    } else {
      const why = webhook ? 'the webhook is disabled' : 'the webhook was deleted';
      attempt = { at: this.now(), status: null, error: `not sent: ${why}`, duration_ms: 0, response_body: '' };
    }
    await recordOutcome(this.db, this.settings, {
      delivery,
      webhook,
      ok,
      attempt,
      // Nothing can change for a webhook that is off: the delivery fails now rather than retry.
      final: !ok && (!webhook || (!webhook.enabled && delivery.type !== PING)),
      now: this.now(),
      random: this.opts.random ?? Math.random,
    });
  }
}
