import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MongoClient } from 'mongodb';
import { intEnv, intListEnv } from './bench-env.js';
import { checkPage, load, type LoadOptions, type Page } from './measure.js';
import { peerContent, type PeerContent } from './peer-data.js';
import { assertSamePages, compared, peerScenarios, S, type PeerServers } from './peer-scenarios.js';
import { seedParse, seedService, PEER_BUCKET_SLUG } from './peer-seed.js';
import { printReport, type Ratio, type Row } from './report.js';
import { measureRounds } from './rounds.js';
import {
  measureWrites,
  parseTarget,
  PARSE_SAME_WORK,
  serviceTarget,
  servicePostIds,
  type WriteTarget,
} from './peer-writes.js';
import { printWriteRatios } from './peer-write-ratios.js';
import { measureEditSlices } from './peer-edit-slices.js';
import { startServer, type ServerHandle } from './server-handle.js';
import {
  assertSameRotations,
  measureRotations,
  parseRotation,
  printRotationRatios,
  serviceRotation,
} from './peer-rotation.js';

/*
 * The service beside Parse Server (a peer doing the same job) and beside the fastest hand-written
 * driver handler, on one engine, with identical content seeded into each, at one or more data
 * sizes. Scenarios are interleaved round by round so a machine busy with other work slows them
 * all alike, each round starting one later (rounds.ts: inTurn); the ratios between them are the
 * result, not the absolute numbers.
 */

export interface PeerBenchOptions {
  uri: string;
  dbName: string;
  engineName: string;
  sizes: number[];
  authors: number;
  load: Omit<LoadOptions, 'serverPids'>;
  rounds: number;
  engineWarmupSeconds: number;
  /** Edits each server answers before the write rounds (JIT warm-up). */
  serverWarmupSeconds: number;
  /** Root of another build whose service runs beside this one (its dist/ compiled). */
  /** Other builds whose service runs beside this one: a label and the root of a checkout with dist/ built. */
  compare: ReadonlyArray<{ label: string; root: string }>;
  /** Whether to measure the read scenarios, the rotating lists (peer-rotation.ts) and the write ones (peer-writes.ts). */
  reads: boolean;
  rotation: boolean;
  writes: boolean;
  /** Whether the write rounds also read under the edit stream (BENCH_PEER_UNDER_READS). */
  underReads: boolean;
  /** Cycles of interleaved edits alone after the rounds (BENCH_EDIT_SLICES; 0: none), each slice this long. */
  editSlices: number;
  editSliceSeconds: number;
}

export interface SizeResult {
  posts: number;
  rows: Row[];
  ratios: Ratio[];
}

function ratio(name: string, value: number, target: string, ok: (v: number) => boolean): Ratio {
  return { name, value, target, ok: ok(value) };
}

/**
 * CPU the server and the engine spent per answered request (median of the rounds): on a machine
 * others share, it moves less with their load than throughput does, so its ratios back up the
 * throughput ones.
 */
function cpuPerRequest(row: Row | undefined): number {
  return row?.cpuMsPerReq ?? NaN;
}

function ratiosFor(rows: Row[], compare: PeerBenchOptions['compare']): Ratio[] {
  const row = (name: string) => rows.find((r) => r.scenario === name);
  const rps = (name: string) => row(name)?.rps ?? NaN;
  /** How many times cheaper `ours` is than `theirs` in CPU per request. */
  const cheaper = (ours: string, theirs: string) => cpuPerRequest(row(theirs)) / cpuPerRequest(row(ours));
  const out = [
    ratio('service list / Parse list', rps(S.list) / rps(S.parseList), '>= 1.0', (v) => v >= 1),
    ratio('service depth=1 / Parse include', rps(S.depth1) / rps(S.parseInclude), '>= 1.0', (v) => v >= 1),
    ratio('service cached / Parse list', rps(S.cached) / rps(S.parseList), '>= 10', (v) => v >= 10),
    ratio('CPU/req: Parse list / service list', cheaper(S.list, S.parseList), '>= 1.0', (v) => v >= 1),
    ratio('CPU/req: Parse include / service depth=1', cheaper(S.depth1, S.parseInclude), '>= 1.0', (v) => v >= 1),
    // The same reads when every one matches and sorts again, as the first read after each write does.
    ratio('no kept order: service list / Parse list', rps(S.listUnkept) / rps(S.parseList), 'info', () => true),
    ratio(
      'no kept order: service depth=1 / Parse include',
      rps(S.depth1Unkept) / rps(S.parseInclude),
      'info',
      () => true,
    ),
    ratio('service list / raw driver list', rps(S.list) / rps(S.rawList), 'info', () => true),
    ratio('service depth=1 / raw driver + $in', rps(S.depth1) / rps(S.rawExpanded), 'info', () => true),
  ];
  for (const { label } of compare) {
    const c = compared(label);
    out.push(
      ratio(`service list / ${label}`, rps(S.list) / rps(c.list), 'info', () => true),
      ratio(`service depth=1 / ${label}`, rps(S.depth1) / rps(c.depth1), 'info', () => true),
      ratio(`CPU/req: ${label} list / service list`, cheaper(S.list, c.list), 'info', () => true),
      ratio(`CPU/req: ${label} depth=1 / service depth=1`, cheaper(S.depth1, c.depth1), 'info', () => true),
    );
  }
  return out;
}

/** The server child of another build (BENCH_COMPARE). */
function childOf(root: string): URL {
  return pathToFileURL(path.join(root, 'dist', 'spec', 'bench', 'server-child.js'));
}

/**
 * The edits of each compared build go to a copy of the data of its own, served by a server of
 * its own. On one database, each build's edits would change the Objects the other last wrote:
 * every version the other app holds (lib/objects/write/version-memo.ts) would be behind when its
 * turn comes, and its edits would pay a failed commit and a read each, by the order of the turns.
 */
async function ownWriteTargets(
  o: PeerBenchOptions,
  client: MongoClient,
  dbName: string,
  content: PeerContent,
  posts: number,
  started: ServerHandle[],
): Promise<WriteTarget[]> {
  const targets: WriteTarget[] = [];
  for (const [i, { label, root }] of o.compare.entries()) {
    const name = `${dbName}_${String(i)}`;
    const keys = await seedService(client.db(name), content);
    const server = await startServer('service', o.uri, name, { script: childOf(root) });
    started.push(server);
    targets.push(serviceTarget(label, server, keys, await servicePostIds(client.db(name)), posts));
  }
  return targets;
}

async function startServers(o: PeerBenchOptions, dbs: { service: string; parse: string }): Promise<ServerHandle[]> {
  const env = { BENCH_BUCKET_SLUG: PEER_BUCKET_SLUG };
  const started: ServerHandle[] = [];
  try {
    // No log files: Parse Server would otherwise write them under the current directory.
    const parseEnv = { PARSE_SERVER_LOGS_FOLDER: 'null' };
    started.push(await startServer('parse', o.uri, dbs.parse, { env: parseEnv, dropLines: /DeprecationWarning/ }));
    started.push(
      await startServer('parse-same-work', o.uri, dbs.parse, { env: parseEnv, dropLines: /DeprecationWarning/ }),
    );
    started.push(await startServer('service', o.uri, dbs.service));
    started.push(await startServer('service', o.uri, dbs.service, { env: { BENCH_LIST_ORDER_MAX_IDS: '0' } }));
    started.push(await startServer('baseline', o.uri, dbs.service, { env }));
    for (const { root } of o.compare)
      started.push(await startServer('service', o.uri, dbs.service, { script: childOf(root) }));
  } catch (err) {
    for (const s of started) await s.stop();
    throw err;
  }
  return started;
}

async function benchSize(o: PeerBenchOptions, client: MongoClient, posts: number): Promise<SizeResult> {
  const dbs = { service: `${o.dbName}_service`, parse: `${o.dbName}_parse` };
  const t0 = Date.now();
  const content = peerContent(posts, o.authors);
  const keys = await seedService(client.db(dbs.service), content);
  const { readKey } = keys;
  await seedParse(client.db(dbs.parse), content);
  console.log(`\n=== ${posts} posts, ${o.authors} authors (seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const children = await startServers(o, dbs);
  try {
    const [parse, parseSameWork, service, unkept, raw, ...others] = children;
    const compare = o.compare.map((c, i) => ({ label: c.label, server: others[i]! }));
    const servers: PeerServers = { parse: parse!, service: service!, unkept: unkept!, raw: raw!, compare };
    const scenarios = peerScenarios(servers, readKey);
    const pages = new Map<string, Page>();
    for (const s of scenarios) pages.set(s.name, await checkPage(s));
    assertSamePages(pages);
    console.log(`Every server answers the same ${pages.get(S.parseList)?.keys.length}-item page and total.`);
    if (o.engineWarmupSeconds > 0) {
      for (const s of scenarios)
        await load(s.server.baseUrl + s.path, o.load.connections, o.engineWarmupSeconds, s.headers);
    }
    const serverPids = new Set(children.map((c) => c.pid));
    const opts: LoadOptions = { ...o.load, serverPids };
    const rows = o.reads ? await measureRounds(scenarios, opts, o.rounds, pages) : [];
    const ratios = ratiosFor(rows, o.compare);
    if (o.rotation) {
      // Before the writes too: the lists are checked against Parse's on the data as seeded.
      const rotations = [
        serviceRotation('service', servers.service, readKey, posts),
        ...compare.map((c) => serviceRotation(c.label, c.server, readKey, posts)),
        parseRotation(servers.parse, posts),
      ];
      await assertSameRotations(rotations);
      console.log('Rotating lists: every tenth of the 300 answers the same page and total on every server.');
      const { connections, seconds, warmupSeconds } = o.load;
      printRotationRatios(await measureRotations(rotations, connections, seconds, o.rounds, warmupSeconds));
    }
    if (o.writes) {
      // After the reads: the edits change the data the pages were checked against.
      console.log('Writes (each server in turn)');
      const ids = await servicePostIds(client.db(dbs.service));
      const path = (name: string) => scenarios.find((s) => s.name === name)?.path ?? '';
      const own = await ownWriteTargets(o, client, dbs.service, content, posts, children);
      for (const t of own) serverPids.add(t.server.pid);
      const targets = [
        serviceTarget('service', servers.service, keys, ids, posts),
        ...own,
        parseTarget(servers.parse, posts, path(S.parseList), path(S.parseInclude)),
        parseTarget(parseSameWork!, posts, path(S.parseList), path(S.parseInclude), PARSE_SAME_WORK),
      ];
      const { connections, seconds } = o.load;
      printWriteRatios(
        await measureWrites(targets, posts, opts.serverPids, {
          connections,
          seconds,
          rounds: o.rounds,
          warmupSeconds: o.serverWarmupSeconds,
          underReads: o.underReads,
        }),
      );
      // After the rounds, so every server is warm; the figure that a machine changing speed moves least.
      if (o.editSlices > 0)
        await measureEditSlices(targets, posts, connections, o.editSlices, o.editSliceSeconds, opts.serverPids);
      // Its cloud code fails silently (Parse logs and answers anyway): the count shows it ran.
      const revisions = await client.db(dbs.parse).collection('bench_revisions').countDocuments();
      console.log(`${PARSE_SAME_WORK}: ${revisions} revisions written by its afterSave`);
      if (revisions === 0) throw new Error(`${PARSE_SAME_WORK} did not do the work: its afterSave wrote nothing`);
    }
    if (o.reads)
      printReport(rows, ratios, {
        bench: 'peers',
        engine: o.engineName,
        posts,
        authors: o.authors,
        connections: o.load.connections,
        seconds: o.load.seconds,
        rounds: o.rounds,
      });
    return { posts, rows, ratios };
  } finally {
    for (const c of children) await c.stop();
  }
}

/** How each scenario's median p50 grows from the smallest data size to each larger one. */
export function printGrowth(results: SizeResult[]): void {
  const [first, ...rest] = results;
  if (!first || rest.length === 0) return;
  console.log(`\np50 latency by data size (ms; growth against ${first.posts} posts)`);
  for (const row of first.rows) {
    const cells = results.map((res) => {
      const p50 = res.rows.find((r) => r.scenario === row.scenario)?.p50 ?? NaN;
      const growth = (p50 / Math.max(row.p50, 0.001)).toFixed(1);
      return res === first ? p50.toFixed(1) : `${p50.toFixed(1)} (x${growth})`;
    });
    console.log(`  ${row.scenario.padEnd(36)} ${cells.map((c) => c.padStart(16)).join('')}`);
  }
  console.log(`  ${'posts'.padEnd(36)} ${results.map((r) => String(r.posts).padStart(16)).join('')}`);
}

/**
 * The settings from the environment:
 *   BENCH_PEER_POSTS=5000,50000  data sizes, each seeded and measured in turn (50 authors:
 *                                BENCH_PEER_AUTHORS)
 *   BENCH_SECONDS=8 BENCH_WARMUP_SECONDS=2 BENCH_ROUNDS=3 BENCH_CONNECTIONS=8
 *   BENCH_ENGINE_WARMUP_SECONDS=5  load per scenario before measuring (the JVM engine compiles)
 *   BENCH_SERVER_WARMUP_SECONDS=20  edits each server answers before the write rounds (JIT)
 *   BENCH_COMPARE=label=<checkout>,...  also runs the service of each checkout (its dist/
 *                                built) beside this one, to measure changes before and after
 *                                in the same run; a bare path is labelled "before"
 *   BENCH_PEER_READS=0 / BENCH_PEER_ROTATION=0 / BENCH_PEER_WRITES=0  leave out the read
 *                                scenarios / the rotating lists / the write ones
 *   BENCH_PEER_UNDER_READS=0     write rounds of edits alone (no reads under the edit stream):
 *                                shorter rounds, so more fit and drift less within one
 *   BENCH_EDIT_SLICES=15 BENCH_EDIT_SLICE_SECONDS=2  after the write rounds, edits alone again in
 *                                that many cycles of short slices, the servers in turn (0: none)
 *   MONGODB_URI=...              that server instead of an embedded engine (the caller's part)
 */
export function peerOptionsFromEnv(engine: { uri: string; name: string }): PeerBenchOptions {
  const compare = process.env.BENCH_COMPARE;
  return {
    uri: engine.uri,
    engineName: engine.name,
    dbName: process.env.BENCH_DB_NAME || 'content_api_peers',
    sizes: intListEnv('BENCH_PEER_POSTS', [5000, 50_000]),
    authors: intEnv('BENCH_PEER_AUTHORS', 50),
    load: {
      connections: intEnv('BENCH_CONNECTIONS', 8),
      seconds: intEnv('BENCH_SECONDS', 8),
      warmupSeconds: intEnv('BENCH_WARMUP_SECONDS', 2),
    },
    rounds: intEnv('BENCH_ROUNDS', 3),
    reads: process.env.BENCH_PEER_READS !== '0',
    rotation: process.env.BENCH_PEER_ROTATION !== '0',
    writes: process.env.BENCH_PEER_WRITES !== '0',
    underReads: process.env.BENCH_PEER_UNDER_READS !== '0',
    editSlices: intEnv('BENCH_EDIT_SLICES', 15, 0),
    editSliceSeconds: intEnv('BENCH_EDIT_SLICE_SECONDS', 2, 1),
    engineWarmupSeconds: intEnv('BENCH_ENGINE_WARMUP_SECONDS', 5, 0),
    serverWarmupSeconds: intEnv('BENCH_SERVER_WARMUP_SECONDS', 20, 1),
    compare: (compare ?? '')
      .split(',')
      .filter((c) => c.trim() !== '')
      .map((c) => {
        const [label, root] = c.includes('=') ? c.split('=', 2) : ['before', c];
        return { label: label!.trim(), root: path.resolve(root!.trim()) };
      }),
  };
}

export async function runPeerBench(o: PeerBenchOptions): Promise<SizeResult[]> {
  const client = new MongoClient(o.uri, { serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  try {
    const results: SizeResult[] = [];
    for (const posts of o.sizes) results.push(await benchSize(o, client, posts));
    printGrowth(results);
    return results;
  } finally {
    await client.close();
  }
}
