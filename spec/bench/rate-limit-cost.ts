/**
 * What the rate limiter costs a cached read: the median latency of a `GET /objects` the read
 * cache answers, through an app with per-minute limits on (so high that nothing is refused: the
 * cost of counting, far from the limit) against the same app with them off (0), over one engine
 * and one database, in alternating rounds, one request at a time. The monthly request count runs
 * in both. The target is at most 5 % more. Run by `npm run bench`, alone by `npm run bench:ratelimit`.
 */
import { MongoClient } from 'mongodb';
import { createApp } from '../../lib/app.js';
import { loadConfig } from '../../lib/config.js';
import { startEngine } from '../../lib/db/engine.js';
import { createBucket } from '../../lib/buckets/buckets.js';
import { emptyDb, listenApps, median, runWhenMain, type ListeningApps } from './bench-apps.js';

const DB_NAME = 'content_api_bench_rate_limit';
const TARGET_RATIO = 1.05;
const SLUG = 'limited';

export interface RateLimitCostResult {
  reads: number;
  withoutMs: number;
  withMs: number;
  ratio: number;
  /** How many store round trips (claims) the limited app made, from the store's own count. */
  claimedUnits: number;
  ok: boolean;
}

async function timedRead(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200 || res.headers.get('x-cache') !== 'HIT')
    throw new Error(`read answered ${res.status}, X-Cache ${res.headers.get('x-cache')}`);
  return ms;
}

/**
 * Median milliseconds of `count` sequential reads of each URL, taken in turns (a, b, b, a, ...),
 * so whatever else the machine does at any moment weighs on both alike.
 */
async function pairedLatency(a: string, b: string, count: number): Promise<[number, number]> {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) {
      ta.push(await timedRead(a));
      tb.push(await timedRead(b));
    } else {
      tb.push(await timedRead(b));
      ta.push(await timedRead(a));
    }
  }
  return [median(ta), median(tb)];
}

export async function benchRateLimitCost(uri: string, rounds = 9, perRound = 1500): Promise<RateLimitCostResult> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
  let apps: ListeningApps | null = null;
  try {
    await client.connect();
    const db = await emptyDb(client, DB_NAME);
    const keys = await createBucket(db, SLUG, { kind: 'generate' }, { kind: 'none' });
    const quiet = () => undefined;
    const env = { SCHEDULER_INTERVAL_MS: '0', WEBHOOK_POLL_MS: '0' };
    const off = createApp({
      config: loadConfig({ ...env, RATE_LIMIT_READS_PER_MINUTE: '0', RATE_LIMIT_WRITES_PER_MINUTE: '0' }),
      db,
      log: quiet,
    });
    const on = createApp({
      config: loadConfig({ ...env, RATE_LIMIT_READS_PER_MINUTE: '1000000000', RATE_LIMIT_WRITES_PER_MINUTE: '0' }),
      db,
      log: quiet,
    });
    apps = await listenApps([off, on]);
    const [baseOff = '', baseOn = ''] = apps.bases;
    const post = (path: string, body: unknown) =>
      fetch(`${baseOff}/v3/buckets/${SLUG}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    if ((await post('/object-types', { title: 'Posts', metafields: [] })).status !== 200)
      throw new Error('creating the type failed');
    for (let i = 0; i < 20; i++) await post('/objects', { title: `Post ${i}`, type: 'posts' });
    const path = `/v3/buckets/${SLUG}/objects?limit=10&read_key=${keys.read_key ?? ''}`;
    // Fills each app's cache and warms both paths' code.
    await fetch(baseOff + path).then((r) => r.arrayBuffer());
    await fetch(baseOn + path).then((r) => r.arrayBuffer());
    await pairedLatency(baseOff + path, baseOn + path, 300);
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const [off, on] = await pairedLatency(baseOff + path, baseOn + path, perRound);
      a.push(off);
      b.push(on);
    }
    const counted = await db
      .collection<{ points: number }>('rate_limits')
      .aggregate<{ total: number }>([{ $group: { _id: null, total: { $sum: '$points' } } }])
      .toArray();
    const withoutMs = median(a);
    const withMs = median(b);
    const ratio = withMs / withoutMs;
    return {
      reads: rounds * perRound * 2,
      withoutMs,
      withMs,
      ratio,
      claimedUnits: counted[0]?.total ?? 0,
      ok: ratio <= TARGET_RATIO,
    };
  } finally {
    apps?.close();
    await client.close();
  }
}

export function printRateLimitCost(r: RateLimitCostResult): void {
  console.log('\nWhat the rate limiter costs a cached read: median GET /objects latency (X-Cache HIT), one at a time');
  console.log(
    `  limiter off ${r.withoutMs.toFixed(3)} ms, on ${r.withMs.toFixed(3)} ms: ${r.ratio.toFixed(3)}x ` +
      `(target <= ${TARGET_RATIO.toFixed(2)}x) ${r.ok ? 'OK' : 'MISSED'} over ${r.reads} reads; ` +
      `units claimed from the store: ${r.claimedUnits}`,
  );
}

/** `npm run bench:ratelimit`: this scenario alone, on its own engine. */
async function main(): Promise<void> {
  const engine = await startEngine({ mongodbUri: process.env.MONGODB_URI || null, persistent: false, dataDir: '' });
  console.log(`Engine: ${engine.name}`);
  try {
    printRateLimitCost(await benchRateLimitCost(engine.uri));
  } finally {
    await engine.stop();
  }
}

runWhenMain(import.meta.url, main);
