/**
 * Webhook delivery benchmark: N events recorded in the outbox, then one worker process (what every
 * app process runs) drains them to a receiver on loopback that answers 204 at once. Reports the
 * cost of recording an event (what a write pays) and the drain rate; the target is >= 200
 * deliveries/s from one process. Run by `npm run bench` after the read scenarios, or alone:
 *
 *   npm run bench:webhooks
 *   BENCH_WEBHOOK_DELIVERIES=5000 BENCH_WEBHOOK_CONCURRENCY=32 npm run bench:webhooks
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MongoClient } from 'mongodb';
import { startEngine } from '../../lib/db/engine.js';
import { deliveriesCollection } from '../../lib/store/webhooks.js';
import { createWebhook } from '../../lib/webhooks/manage.js';
import { recordEvent } from '../../lib/webhooks/outbox.js';
import { createBucket, findBucketBySlug } from '../../lib/buckets/buckets.js';
import { WorkerProcess } from '../support/webhook-worker-process.js';
import { emptyDb, runWhenMain } from './bench-apps.js';
import { benchWriteCost, printWriteCost } from './webhook-write-cost.js';

const DB_NAME = 'content_api_bench_webhooks';
const TARGET_PER_SECOND = 200;

export interface DrainResult {
  deliveries: number;
  concurrency: number;
  recordMsPerEvent: number;
  /** From the first request the receiver got to the last. */
  drainSeconds: number;
  perSecond: number;
  /** Median and 99th percentile of the attempt durations the worker logged. */
  attemptP50Ms: number;
  attemptP99Ms: number;
  ok: boolean;
}

function intEnv(name: string, fallback: number): number {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
}

/** A rendered Object of a realistic size (about 1.5 KB of JSON). */
function sampleObject(i: number): Record<string, unknown> {
  return {
    id: i.toString(16).padStart(24, '0'),
    slug: `post-${i}`,
    title: `Post number ${i}`,
    type: 'posts',
    status: 'published',
    content: `<p>${'Lorem ipsum dolor sit amet. '.repeat(30)}</p>`,
    metadata: { price: i, tags: ['news', 'tech'], seo: { title: `Post ${i}`, weight: 3 } },
    created_at: new Date().toISOString(),
    modified_at: new Date().toISOString(),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function benchWebhookDrain(uri: string): Promise<DrainResult> {
  const count = intEnv('BENCH_WEBHOOK_DELIVERIES', 2000);
  const concurrency = intEnv('BENCH_WEBHOOK_CONCURRENCY', 16);
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
  const received: number[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(performance.now());
      res.writeHead(204).end();
    });
  });
  let worker: WorkerProcess | null = null;
  try {
    await client.connect();
    const db = await emptyDb(client, DB_NAME);
    await createBucket(db, 'bench-hooks', { kind: 'none' }, { kind: 'none' });
    const bucket = (await findBucketBySlug(db, 'bench-hooks'))!;
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await createWebhook(db, bucket, { endpoint, events: ['object.created'] });

    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      await recordEvent(db, { bucket, type: 'object.created', objectType: 'posts', data: sampleObject(i) });
    }
    const recordMsPerEvent = (performance.now() - t0) / count;

    worker = await WorkerProcess.start(uri, DB_NAME, {
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_CONCURRENCY: String(concurrency),
    });
    const deliveries = deliveriesCollection(db);
    const deadline = Date.now() + 120_000;
    // Watched at the receiver, so the benchmark adds no load to the engine while it runs.
    while (received.length < count || (await deliveries.countDocuments({ status: 'delivered' })) < count) {
      if (Date.now() > deadline) throw new Error('the deliveries were not drained within 120 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const first = received[0] ?? 0;
    const last = received[received.length - 1] ?? first;
    const drainSeconds = (last - first) / 1000;
    const durations = (await deliveries.find({}, { projection: { attempts: 1 } }).toArray())
      .flatMap((d) => d.attempts.map((a) => a.duration_ms))
      .sort((a, b) => a - b);
    const perSecond = (count - 1) / Math.max(drainSeconds, 0.001);
    if (received.length !== count)
      throw new Error(`the receiver got ${received.length} requests for ${count} deliveries`);
    return {
      deliveries: count,
      concurrency,
      recordMsPerEvent,
      drainSeconds,
      perSecond,
      attemptP50Ms: percentile(durations, 50),
      attemptP99Ms: percentile(durations, 99),
      ok: perSecond >= TARGET_PER_SECOND,
    };
  } finally {
    await worker?.end('stop');
    receiver.closeAllConnections();
    receiver.close();
    await client.close();
  }
}

export function printDrain(r: DrainResult): void {
  console.log('\nWebhook delivery: one worker process draining the outbox to a receiver on loopback');
  console.log(`  recording an event (one matching webhook): ${r.recordMsPerEvent.toFixed(2)} ms per event`);
  console.log(
    `  drained ${r.deliveries} deliveries in ${r.drainSeconds.toFixed(2)} s at concurrency ${r.concurrency}: ` +
      `${r.perSecond.toFixed(0)} deliveries/s (target >= ${TARGET_PER_SECOND}) ${r.ok ? 'OK' : 'MISSED'}`,
  );
  console.log(`  attempt duration p50 ${r.attemptP50Ms} ms, p99 ${r.attemptP99Ms} ms`);
}

async function main(): Promise<void> {
  const engine = await startEngine({ mongodbUri: process.env.MONGODB_URI || null, persistent: false, dataDir: '' });
  console.log(`Engine: ${engine.name}`);
  try {
    const result = await benchWebhookDrain(engine.uri);
    printDrain(result);
    const cost = await benchWriteCost(engine.uri);
    printWriteCost(cost);
    console.log(JSON.stringify({ webhook_drain: result, webhook_write_cost: cost }));
  } finally {
    await engine.stop();
  }
}

runWhenMain(import.meta.url, main);
