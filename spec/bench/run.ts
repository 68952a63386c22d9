import assert from 'node:assert/strict';
import os from 'node:os';
import { machineLine } from './bench-apps.js';
import { MongoClient } from 'mongodb';
import { startEngine } from '../../lib/db/engine.js';
import { intEnv } from './bench-env.js';
import { checkPage, load, type LoadOptions, type Page, type PageShape, type Scenario } from './measure.js';
import { PEERS_INSTALL_HINT, peersInstalled } from './parse-peer.js';
import { peerOptionsFromEnv, runPeerBench } from './peer-bench.js';
import { printReport, type Ratio, type Row } from './report.js';
import { measureRounds } from './rounds.js';
import { countRoundTrips } from './round-trips.js';
import { seed, BUCKET_SLUG, QUERIED_GENRE } from './seed.js';
import { startServer, type ServerHandle } from './server-handle.js';
import { benchWebhookDrain, printDrain } from './webhook-drain.js';
import { benchWriteCost, printWriteCost } from './webhook-write-cost.js';
import { benchRateLimitCost, printRateLimitCost } from './rate-limit-cost.js';

/*
 * Read-path benchmark: the service against a hand-written Express + driver handler, on one
 * engine and one seeded data set. Servers run in child processes so autocannon (here) does not
 * share their event loop; everything talks over loopback. Not part of `npm test`.
 *
 *   BENCH_SECONDS=8 BENCH_WARMUP_SECONDS=2 BENCH_ROUNDS=3 BENCH_CONNECTIONS=10 npm run bench
 *   BENCH_ENGINE_WARMUP_SECONDS=5 loads the engine before any measurement (a JVM engine speeds
 *   up for a while as it compiles, which would otherwise favour whatever runs last).
 *   MONGODB_URI=... uses that server (the BENCH_DB_NAME database is dropped and reseeded).
 *   BENCH_CPU_PROF=<dir> writes a CPU profile of each server child.
 * Then the webhook delivery scenario (webhook-drain.ts; `npm run bench:webhooks` runs it alone),
 * what recording events costs a create (webhook-write-cost.ts), what the rate limiter costs a
 * cached read (rate-limit-cost.ts; `npm run bench:ratelimit` runs it alone), and the comparison
 * with Parse Server (peer-bench.ts; `npm run bench:peers` runs it alone, BENCH_PEERS=0 skips it);
 * without the peer package installed, the run says how to install it and skips that part.
 */

const SECONDS = intEnv('BENCH_SECONDS', 8);
const WARMUP = intEnv('BENCH_WARMUP_SECONDS', 2);
const ENGINE_WARMUP = intEnv('BENCH_ENGINE_WARMUP_SECONDS', 5, 0);
const ROUNDS = intEnv('BENCH_ROUNDS', 3);
const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 10);
const DB_NAME = process.env.BENCH_DB_NAME || 'content_api_bench';

const OURS: PageShape = { list: 'objects', key: 'id', total: 'total' };
const RAW: PageShape = { list: 'objects', key: '_id', total: 'total' };

function listPath(readKey: string, extra: Record<string, string>): string {
  const params = new URLSearchParams({
    query: JSON.stringify({ type: 'posts', 'metadata.genre': QUERIED_GENRE }),
    sort: '-metadata.score',
    limit: '100',
    read_key: readKey,
    ...extra,
  });
  return `/v3/buckets/${BUCKET_SLUG}/objects?${params}`;
}

/** The same page as `listPath` through GraphQL (GET, queries only): titles and each post's author's title. */
function graphqlPath(readKey: string): string {
  const params = new URLSearchParams({
    query:
      'query($q: JSON) { posts(query: $q, sort: "-metadata.score", limit: 100) { total objects { id title metadata { author { title } } } } }',
    variables: JSON.stringify({ q: { 'metadata.genre': QUERIED_GENRE } }),
    read_key: readKey,
    useCache: 'false',
  });
  return `/v3/buckets/${BUCKET_SLUG}/graphql?${params}`;
}

const GRAPHQL: PageShape = { under: ['data', 'posts'], list: 'objects', key: 'id', total: 'total' };

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function ratio(name: string, value: number, target: string, ok: (v: number) => boolean): Ratio {
  return { name, value, target, ok: ok(value) };
}

function mb(bytes: number | null): number | null {
  return bytes === null ? null : Math.round((bytes / 1024 / 1024) * 10) / 10;
}

async function main(): Promise<void> {
  const started = Date.now();
  const engine = await startEngine({ mongodbUri: process.env.MONGODB_URI || null, persistent: false, dataDir: '' });
  console.log(`Engine: ${engine.name}`);
  console.log(machineLine());
  console.log(
    `Load: autocannon in this process, ${CONNECTIONS} connections (1 where noted), ${ROUNDS} rounds of ${SECONDS} s per scenario (each after ${WARMUP} s warm-up), ` +
      'servers in child processes on 127.0.0.1',
  );
  if (process.env.BENCH_PEERS !== '0' && !peersInstalled()) {
    console.log(`Note: the peer comparison at the end will be skipped. ${PEERS_INSTALL_HINT}`);
  }
  const children: ServerHandle[] = [];
  const client = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    await client.connect();
    const t0 = Date.now();
    const seeded = await seed(client.db(DB_NAME));
    console.log(`Seeded ${JSON.stringify(seeded.counts)} in ${seconds(Date.now() - t0)}`);

    const paths = {
      uncached: listPath(seeded.readKey, { useCache: 'false' }),
      cached: listPath(seeded.readKey, {}),
      depth0: listPath(seeded.readKey, { useCache: 'false', depth: '0' }),
      depth2: listPath(seeded.readKey, { useCache: 'false', depth: '2' }),
      depth1Props: listPath(seeded.readKey, { useCache: 'false', depth: '1', props: 'id,title,metadata' }),
      graphql: graphqlPath(seeded.readKey),
    };

    const trips = await countRoundTrips(engine.uri, DB_NAME, {
      depth0: paths.depth0,
      depth2: paths.depth2,
      cached: paths.cached,
    });
    console.log('\nDatabase commands for one request (command monitoring, steady state)');
    for (const [name, t] of Object.entries(trips)) {
      assert.equal(t.status, 200, `${name}: ${JSON.stringify(t.body).slice(0, 300)}`);
      console.log(`  ${name.padEnd(7)} X-Cache ${t.cache}: ${t.commands.length} round trips: ${t.commands.join(', ')}`);
    }
    const depth2Trip = trips.depth2;
    assert.ok(depth2Trip, 'the depth=2 request was counted');
    const first = (
      depth2Trip.body as {
        objects: Array<{ metadata: { author: unknown; categories: Array<{ metadata: { parent: unknown } }> } }>;
      }
    ).objects[0];
    assert.ok(first, 'depth=2 returns objects');
    assert.equal(typeof first.metadata.author, 'object', 'depth=2 expands the author');
    assert.equal(typeof first.metadata.categories[0]?.metadata.parent, 'object', 'depth=2 expands the parent category');

    // Both servers stay up for the whole run, so the scenarios can be interleaved round by round.
    const baseline = await startServer('baseline', engine.uri, DB_NAME);
    children.push(baseline);
    const service = await startServer('service', engine.uri, DB_NAME);
    children.push(service);
    const scenarios: Scenario[] = [
      { name: 'baseline (driver+express)', server: baseline, path: `/posts?genre=${QUERIED_GENRE}`, shape: RAW },
      { name: 'service, cache off', server: service, path: paths.uncached, shape: OURS },
      { name: 'service, cache on', server: service, path: paths.cached, shape: OURS },
      { name: 'service, depth=0', server: service, path: paths.depth0, shape: OURS },
      { name: 'service, depth=2', server: service, path: paths.depth2, shape: OURS },
      // With 10 connections a saturated server's latency is mostly queueing, so its ratio tracks
      // cost per request; one connection shows the latency the extra round trips add.
      { name: 'service, depth=0, 1 conn', server: service, path: paths.depth0, shape: OURS, connections: 1 },
      { name: 'service, depth=2, 1 conn', server: service, path: paths.depth2, shape: OURS, connections: 1 },
      { name: 'service, depth=1 props', server: service, path: paths.depth1Props, shape: OURS },
      { name: 'GraphQL, posts with author { title }', server: service, path: paths.graphql, shape: GRAPHQL },
    ];
    const pages = new Map<string, Page>();
    for (const s of scenarios) pages.set(s.name, await checkPage(s));
    assert.deepEqual(
      pages.get(scenarios[1]!.name)!.keys,
      pages.get(scenarios[0]!.name)!.keys,
      'the service and the baseline answer the same page',
    );

    if (ENGINE_WARMUP > 0) {
      console.log(`\nWarming the engine (${ENGINE_WARMUP} s per scenario, not measured)`);
      for (const s of scenarios.filter((x) => x.connections === undefined))
        await load(s.server.baseUrl + s.path, CONNECTIONS, ENGINE_WARMUP, s.headers);
    }

    const opts: LoadOptions = {
      connections: CONNECTIONS,
      seconds: SECONDS,
      warmupSeconds: WARMUP,
      serverPids: new Set(children.map((c) => c.pid)),
    };
    const rows: Row[] = await measureRounds(scenarios, opts, ROUNDS, pages);
    const row = (name: string) => rows.find((r) => r.scenario === name)!;
    const [base, uncached, cached, d0, d2, d0one, d2one, d1props, graphql] = scenarios.map((s) => row(s.name));
    assert.ok(base && uncached && cached && d0 && d2 && d0one && d2one && d1props && graphql, 'a row per scenario');
    const ratios: Ratio[] = [
      ratio('service/baseline throughput (cache off)', uncached.rps / base.rps, '>= 0.8', (v) => v >= 0.8),
      ratio('cached/uncached throughput', cached.rps / uncached.rps, '>= 3', (v) => v >= 3),
      ratio('depth2/depth0 p50 latency', d2.p50 / Math.max(d0.p50, 0.001), '<= 2.5', (v) => v <= 2.5),
      ratio(
        'depth2/depth0 p50 latency, 1 connection',
        d2one.p50 / Math.max(d0one.p50, 0.001),
        '<= 2.5',
        (v) => v <= 2.5,
      ),
      // The Bucket, the page and one read by _id per level; the total was kept by the warm-up read.
      ratio('round trips, one depth=2 request', depth2Trip.commands.length, '<= 4', (v) => v <= 4),
      ratio(
        'GraphQL page with authors / REST depth=1 throughput',
        graphql.rps / d1props.rps,
        '>= 0.8',
        (v) => v >= 0.8,
      ),
    ];
    const vmHwm = { baseline: mb(baseline.vmHwm()), service: mb(service.vmHwm()) };
    printReport(rows, ratios, {
      engine: engine.name,
      node: process.version,
      cpus: os.cpus().length,
      connections: CONNECTIONS,
      seconds: SECONDS,
      rounds: ROUNDS,
      objects: seeded.counts,
      vm_hwm_mb: vmHwm,
      round_trips: Object.fromEntries(Object.entries(trips).map(([k, t]) => [k, t.commands])),
    });
    console.log(
      `\nServer process high-water RSS (VmHWM) over the whole run: baseline ${vmHwm.baseline} MB, service ${vmHwm.service} MB`,
    );
    // Servers stopped first: the delivery worker gets the machine to itself, as it would the engine.
    for (const c of children.splice(0)) await c.stop();
    printDrain(await benchWebhookDrain(engine.uri));
    if (process.env.BENCH_PEERS === '0') console.log('\nPeer comparison skipped (BENCH_PEERS=0).');
    else if (!peersInstalled()) console.log(`\nPeer comparison skipped. ${PEERS_INSTALL_HINT}`);
    else {
      console.log('\nPeer comparison: the service beside Parse Server (npm run bench:peers runs it alone)');
      await runPeerBench(peerOptionsFromEnv(engine));
    }
    printWriteCost(await benchWriteCost(engine.uri));
    printRateLimitCost(await benchRateLimitCost(engine.uri));
    console.log(`Total time ${seconds(Date.now() - started)}`);
  } finally {
    for (const c of children) await c.stop();
    await client.close();
    await engine.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
