import type {
  CommandFailedEvent,
  CommandSucceededEvent,
  ConnectionCheckedInEvent,
  ConnectionCheckedOutEvent,
  Db,
  MongoClient,
} from 'mongodb';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ReadCache } from '../cache/read-cache.js';
import type { HealthView } from '../db/db-health.js';
import { scheduleDepth } from '../scheduling/scheduler-depth.js';
import { outboxDepth } from '../webhooks/outbox-depth.js';

/** Seconds: a cached read takes well under a millisecond, an upload or a deep read seconds. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const ENGINE_BUCKETS = [0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
/** A scrape must not wait long on the database; a slow count leaves its series out instead. */
const QUEUE_QUERY_MS = 2000;

/**
 * This app's Prometheus metrics, in a registry of its own (not prom-client's global one), so
 * two apps in one process count apart. Counts kept elsewhere (the read cache's, the queues in
 * the database) are read when scraped; requests and engine round trips are observed as they end.
 */
export class AppMetrics {
  readonly registry = new Registry();
  /** Request durations, observed by lib/observability/observe-requests.ts as each answer ends. */
  readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly roundTrips: Histogram;
  private readonly commands: Histogram<'command' | 'outcome'>;
  private processMetrics = false;

  /** `processMetrics`: start the process collectors now rather than at the first scrape (the server does). */
  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics) this.startProcessMetrics();
    const registers = [this.registry];
    this.requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request’s arrival to the end of its response, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.roundTrips = new Histogram({
      name: 'content_api_engine_round_trip_seconds',
      help: 'Database operations: how long each held its connection (one command and its reply); _count is the round trips.',
      buckets: ENGINE_BUCKETS,
      registers,
    });
    this.commands = new Histogram({
      name: 'content_api_engine_command_seconds',
      help: 'Commands sent to the database by name and outcome (only with METRICS_ENGINE_COMMANDS=true).',
      labelNames: ['command', 'outcome'],
      buckets: ENGINE_BUCKETS,
      registers,
    });
  }

  /** Hits and misses of the read cache, and what it holds. */
  watchCache(cache: ReadCache): void {
    const registers = [this.registry];
    new Counter({
      name: 'content_api_read_cache_hits_total',
      help: 'Reads answered from the read cache.',
      registers,
      collect() {
        this.reset();
        this.inc(cache.hits);
      },
    });
    new Counter({
      name: 'content_api_read_cache_misses_total',
      help: 'Cache lookups that found nothing (the read went to the database).',
      registers,
      collect() {
        this.reset();
        this.inc(cache.misses);
      },
    });
    new Gauge({
      name: 'content_api_read_cache_bytes',
      help: 'Memory the cached read responses take.',
      registers,
      collect() {
        this.set(cache.usage.bytes);
      },
    });
  }

  /** The change feed's open streams and the messages they sent (lib/limits/stream-caps.ts). */
  watchStreams(streams: { readonly open: number; readonly sent: number }): void {
    const registers = [this.registry];
    new Gauge({
      name: 'content_api_event_streams_open',
      help: 'Change feed streams open on this process.',
      registers,
      collect() {
        this.set(streams.open);
      },
    });
    new Counter({
      name: 'content_api_event_stream_messages_total',
      help: 'Change feed events sent to streams of this process.',
      registers,
      collect() {
        this.reset();
        this.inc(streams.sent);
      },
    });
  }

  /**
   * The scheduler's and the webhook outbox's backlog. They live in the database, shared by every
   * process, so each process reports the same numbers. Left out while the database is down.
   */
  watchQueues(db: Db, health: HealthView | undefined): void {
    const registers = [this.registry];
    const reachable = () => health?.isUp() ?? true;
    new Gauge({
      name: 'content_api_scheduled_objects',
      help: 'Objects waiting for the scheduler: job is publish or unpublish, state due (time has come) or waiting.',
      labelNames: ['job', 'state'],
      registers,
      async collect() {
        this.reset();
        if (!reachable()) return;
        const depth = await scheduleDepth(db, new Date(), QUEUE_QUERY_MS).catch(() => null);
        if (!depth) return;
        for (const state of ['due', 'waiting'] as const) {
          this.set({ job: 'publish', state }, depth[state].publish);
          this.set({ job: 'unpublish', state }, depth[state].unpublish);
        }
      },
    });
    new Gauge({
      name: 'content_api_webhook_outbox_deliveries',
      help: 'Webhook deliveries not yet sent: state due (to send now) or waiting (for a retry, or being sent).',
      labelNames: ['state'],
      registers,
      async collect() {
        this.reset();
        if (!reachable()) return;
        const depth = await outboxDepth(db, new Date(), QUEUE_QUERY_MS).catch(() => null);
        if (!depth) return;
        this.set({ state: 'due' }, depth.due);
        this.set({ state: 'waiting' }, depth.waiting);
      },
    });
  }

  /**
   * Counts the round trips of `client` from its connection pool's check-out and check-in events,
   * which the driver emits anyway: one operation holds a connection for one command and its reply
   * (a getMore or a retry is an operation of its own). Per-command figures come from the command
   * events, which the client emits only when made with `monitorCommands: true`: they cost a second
   * decoding of every reply (measured: about a fifth more CPU on an uncached list read), so the
   * server turns them on only with METRICS_ENGINE_COMMANDS. Returns what stops counting.
   */
  watchClient(client: MongoClient): () => void {
    const held = new Map<string, bigint>();
    const checkedOut = (e: ConnectionCheckedOutEvent) => {
      held.set(`${e.address}#${String(e.connectionId)}`, process.hrtime.bigint());
    };
    const checkedIn = (e: ConnectionCheckedInEvent) => {
      const key = `${e.address}#${String(e.connectionId)}`;
      const since = held.get(key);
      if (since === undefined) return;
      held.delete(key);
      this.roundTrips.observe(Number(process.hrtime.bigint() - since) / 1e9);
    };
    const ok = (e: CommandSucceededEvent) => {
      this.commands.observe({ command: e.commandName, outcome: 'ok' }, e.duration / 1000);
    };
    const failed = (e: CommandFailedEvent) => {
      this.commands.observe({ command: e.commandName, outcome: 'failed' }, e.duration / 1000);
    };
    client.on('connectionCheckedOut', checkedOut);
    client.on('connectionCheckedIn', checkedIn);
    client.on('commandSucceeded', ok);
    client.on('commandFailed', failed);
    return () => {
      client.off('connectionCheckedOut', checkedOut);
      client.off('connectionCheckedIn', checkedIn);
      client.off('commandSucceeded', ok);
      client.off('commandFailed', failed);
    };
  }

  private startProcessMetrics(): void {
    this.processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }

  /**
   * The exposition text. Unless started at construction, the process metrics (event-loop lag,
   * memory, CPU, GC) start with the first scrape: their collectors run timers and observers,
   * which apps nobody scrapes (tests, scripts) should not pay for.
   */
  async text(): Promise<string> {
    if (!this.processMetrics) {
      this.startProcessMetrics();
      // The event-loop delay monitor needs a few samples (10 ms apart) to report anything sensible.
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
