import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import type { WebhookSettings } from '../config.js';
import { attemptDelivery } from './attempt.js';
import { deliveriesCollection, webhooksCollection, type AttemptDoc, type DeliveryDoc } from './collections.js';
import { PING } from './events.js';
import { recordOutcome } from './outcome.js';
import type { Lookup } from './resolve.js';
import { createAgents, type Agents } from './send.js';

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

  /** Attempts every due delivery it can claim, `concurrency` at a time; returns how many it attempted. */
  async drain(): Promise<number> {
    const lanes = Array.from({ length: this.settings.concurrency }, () => this.lane());
    return (await Promise.all(lanes)).reduce((a, b) => a + b, 0);
  }

  private async lane(): Promise<number> {
    let attempted = 0;
    try {
      while (!this.stopping) {
        const delivery = await this.claim();
        if (!delivery) break;
        await this.process(delivery);
        attempted++;
      }
    } catch (err) {
      // Most likely the database is unreachable: this lane stops until the next poll, and a
      // delivery it held is sent again once its claim lapses.
      this.opts.log?.(`webhook delivery: ${err instanceof Error ? err.message : String(err)}`);
    }
    return attempted;
  }

  private async claim(): Promise<DeliveryDoc | null> {
    const now = this.now();
    const until = new Date(now.getTime() + this.settings.leaseMs);
    return deliveriesCollection(this.db).findOneAndUpdate(
      { status: 'pending', next_attempt_at: { $lte: now } },
      { $set: { claim: { token: `${this.id}-${++this.claims}`, until }, next_attempt_at: until } },
      { sort: { next_attempt_at: 1 }, returnDocument: 'after' },
    );
  }

  private async process(delivery: DeliveryDoc): Promise<void> {
    const webhook = await webhooksCollection(this.db).findOne({ _id: delivery.webhook_id });
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
