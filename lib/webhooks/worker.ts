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
} from '../store/webhooks.js';
import { noteAttempt, shareOf } from './breaker.js';
import { PING } from '../store/event-types.js';
import { fairOrder } from './fair-share.js';
import { recordOutcome } from './outcome.js';
import type { Lookup } from './resolve.js';
import { createAgents, type Agents } from './send.js';

/** Due deliveries listed per query, per lane: enough to keep every lane busy between queries. */
const BATCH_PER_LANE = 4;

type DueItem = Pick<DeliveryDoc, '_id' | 'webhook_id' | 'bucket_id'>;

/** Due deliveries in the order to send them, and their webhooks as read for the batch. */
interface Batch {
  items: DueItem[];
  webhooks: Map<string, WebhookDoc>;
}

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
   * Attempts every due delivery it can claim, `concurrency` at a time and at most
   * `endpointConcurrency` to one webhook; returns how many it attempted. Each batch takes a share
   * of every webhook with due deliveries (none while it is paused, one to probe it once the pause
   * ends) and sends them in a fair order (fair-share.ts), so one Bucket's backlog, or one slow
   * endpoint's, does not hold back the others. Deliveries are claimed one by one by id, so two
   * workers listing the same batch still send each delivery once: the loser of a claim skips it.
   */
  async drain(): Promise<number> {
    let attempted = 0;
    try {
      while (!this.stopping) {
        const batch = await this.dueBatch();
        if (batch.items.length === 0) break;
        attempted += await this.sendBatch(batch);
      }
    } catch (err) {
      // Most likely the database is unreachable: draining stops until the next poll, and a
      // delivery held when it failed is sent again once its claim lapses.
      this.opts.log?.(`webhook delivery: ${err instanceof Error ? err.message : String(err)}`);
    }
    return attempted;
  }

  private async dueBatch(): Promise<Batch> {
    const now = this.now();
    const due = { status: 'pending' as const, next_attempt_at: { $lte: now } };
    const deliveries = deliveriesCollection(this.db);
    const ids = await deliveries.distinct('webhook_id', due);
    if (ids.length === 0) return { items: [], webhooks: new Map() };
    // The batch's webhooks, read once: a change to one applies from the next batch on.
    const found = await webhooksCollection(this.db)
      .find({ _id: { $in: ids } })
      .toArray();
    const webhooks = new Map(found.map((w) => [w._id.toHexString(), w]));
    const share = this.settings.endpointConcurrency * BATCH_PER_LANE;
    const served = shuffled(ids)
      .slice(0, this.settings.concurrency * BATCH_PER_LANE)
      .map((id) => ({ id, webhook: webhooks.get(id.toHexString()) }))
      .map((w) => ({ ...w, share: shareOf(w.webhook, this.settings, now) }))
      .filter((w) => w.share !== 'paused');
    const groups = await Promise.all(
      served.map(async ({ id, webhook, share: kind }) => {
        const items = await deliveries
          .find({ ...due, webhook_id: id }, { projection: { _id: 1, webhook_id: 1, bucket_id: 1 } })
          .sort({ next_attempt_at: 1 })
          .limit(kind === 'probe' ? 1 : share)
          .toArray();
        // A deleted webhook's deliveries are still answered (failed, not sent): grouped by their own Bucket.
        const bucket = (webhook?.bucket_id ?? items[0]?.bucket_id)?.toHexString() ?? '';
        return { bucket, webhook: id.toHexString(), items };
      }),
    );
    return { items: fairOrder(groups), webhooks };
  }

  /** Runs the batch with at most `concurrency` attempts at once, and `endpointConcurrency` per webhook. */
  private sendBatch(batch: Batch): Promise<number> {
    const queue = [...batch.items];
    const inFlight = new Map<string, number>();
    const paused = new Set<string>();
    const cap = this.settings.endpointConcurrency;
    let running = 0;
    let attempted = 0;
    let failure: Error | null = null;
    return new Promise((resolve, reject) => {
      const settle = () => {
        if (running > 0) return;
        if (failure) reject(failure);
        else resolve(attempted);
      };
      const pump = () => {
        while (running < this.settings.concurrency && !this.stopping && !failure) {
          const at = queue.findIndex((d) => {
            const key = d.webhook_id.toHexString();
            return !paused.has(key) && (inFlight.get(key) ?? 0) < cap;
          });
          if (at < 0) break;
          const [item] = queue.splice(at, 1);
          if (item) start(item);
        }
        settle();
      };
      const start = (item: DueItem) => {
        const key = item.webhook_id.toHexString();
        running++;
        inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
        void this.attemptOne(item, batch.webhooks.get(key) ?? null)
          .then(
            (outcome) => {
              if (outcome.attempted) attempted++;
              // Its breaker opened: the rest of its share waits for the pause to end.
              if (outcome.paused) paused.add(key);
            },
            (err: unknown) => {
              failure ??= err instanceof Error ? err : new Error(String(err));
            },
          )
          .finally(() => {
            running--;
            inFlight.set(key, (inFlight.get(key) ?? 1) - 1);
            pump();
          });
      };
      pump();
    });
  }

  private async attemptOne(
    item: DueItem,
    webhook: WebhookDoc | null,
  ): Promise<{ attempted: boolean; paused: boolean }> {
    const delivery = await this.claim(item._id);
    if (!delivery) return { attempted: false, paused: false };
    const paused = await this.process(delivery, webhook);
    this.attempts++;
    return { attempted: true, paused };
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

  /** Sends one claimed delivery and records the outcome; true when the webhook's breaker opened. */
  private async process(delivery: DeliveryDoc, webhook: WebhookDoc | null): Promise<boolean> {
    let ok = false;
    let sent = false;
    let attempt: AttemptDoc;
    if (webhook && (webhook.enabled || delivery.type === PING)) {
      sent = true;
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
    return sent && webhook !== null && (await noteAttempt(this.db, this.settings, webhook, ok, this.now()));
  }
}
