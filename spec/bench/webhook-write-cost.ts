/**
 * What webhooks cost a write: the latency of `POST /objects` through an app whose writes offer
 * every event to the webhook outbox (one matching webhook, so each create also queues a delivery)
 * against the same app without the outbox, on one engine, in alternating rounds. The target is
 * at most 10 % more per create. Run by `npm run bench` after the delivery scenario.
 */
import { MongoClient } from 'mongodb';
import { createApp } from '../../lib/app.js';
import { loadConfig } from '../../lib/config.js';
import { createBucket, findBucketBySlug } from '../../lib/buckets/buckets.js';
import { DomainEvents } from '../../lib/events/domain-events.js';
import { createWebhook } from '../../lib/webhooks/manage.js';
import { emptyDb, listenApps, median, type ListeningApps } from './bench-apps.js';

const DB_NAME = 'content_api_bench_write_cost';
const TARGET_RATIO = 1.1;

export interface WriteCostResult {
  creates: number;
  withoutMs: number;
  withMs: number;
  ratio: number;
  ok: boolean;
}

/** Median milliseconds of `count` sequential creates against `base`. */
async function createLatency(base: string, slug: string, count: number, round: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/v3/buckets/${slug}/objects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Post ${round}-${i}`, type: 'posts', metadata: { price: i } }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`create answered ${res.status}`);
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function benchWriteCost(uri: string, rounds = 5, perRound = 100): Promise<WriteCostResult> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
  let apps: ListeningApps | null = null;
  try {
    await client.connect();
    const db = await emptyDb(client, DB_NAME);
    await createBucket(db, 'cost', { kind: 'none' }, { kind: 'none' });
    const bucket = (await findBucketBySlug(db, 'cost'))!;
    // Never reached: no worker runs, so each create only pays for queueing its delivery.
    await createWebhook(db, bucket, { endpoint: 'http://127.0.0.1:9/hook', events: ['object.created'] });
    // Over a thousand creates in well under a minute: the write budget would refuse them.
    const config = loadConfig({
      SCHEDULER_INTERVAL_MS: '0',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_WRITES_PER_MINUTE: '0',
    });
    const quiet = () => undefined;
    const withOutbox = createApp({ config, db, log: quiet });
    const without = createApp({ config, db, log: quiet, events: new DomainEvents(config, undefined, false) });
    apps = await listenApps([without, withOutbox]);
    const [baseWithout = '', baseWith = ''] = apps.bases;
    const price = { type: 'number', title: 'Price', key: 'price', value: '' };
    const made = await fetch(`${baseWith}/v3/buckets/cost/object-types`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Posts', metafields: [price] }),
    });
    if (made.status !== 200) throw new Error(`creating the type answered ${made.status}`);
    await createLatency(baseWith, 'cost', 20, -1); // warm-up of both paths' code and caches
    await createLatency(baseWithout, 'cost', 20, -2);
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < rounds; r++) {
      a.push(await createLatency(baseWithout, 'cost', perRound, r * 2));
      b.push(await createLatency(baseWith, 'cost', perRound, r * 2 + 1));
    }
    const withoutMs = median(a);
    const withMs = median(b);
    const ratio = withMs / withoutMs;
    return { creates: rounds * perRound * 2, withoutMs, withMs, ratio, ok: ratio <= TARGET_RATIO };
  } finally {
    apps?.close();
    await client.close();
  }
}

export function printWriteCost(r: WriteCostResult): void {
  console.log('\nWhat webhooks cost a write: median POST /objects latency, one matching webhook');
  console.log(
    `  without the outbox ${r.withoutMs.toFixed(2)} ms, with it ${r.withMs.toFixed(2)} ms: ` +
      `${r.ratio.toFixed(3)}x (target <= ${TARGET_RATIO.toFixed(2)}x) ${r.ok ? 'OK' : 'MISSED'} over ${r.creates} creates`,
  );
}
