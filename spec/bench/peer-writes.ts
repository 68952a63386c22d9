import autocannon from 'autocannon';
import type { Db } from 'mongodb';
import { objectsCollection } from '../../lib/db/collections.js';
import { load } from './measure.js';
import { inTurn } from './rounds.js';
import { cpuMsOf, descendantCpuMs } from './proc-cpu.js';
import { PARSE_APP_ID, PARSE_MOUNT } from './parse-peer.js';
import { servicePath } from './peer-scenarios.js';
import { parseRotation, readEachOnce, rotatingRps, serviceRotation, type Rotation } from './peer-rotation.js';
import { PEER_BUCKET_SLUG } from './peer-seed.js';
import type { ServerHandle } from './server-handle.js';

/*
 * Writes beside Parse Server: edits alone (a PATCH of one Metafield against a PUT of one field),
 * and reads while one edit lands every 50 ms (lists and depth=1 / include=author, with the edits'
 * own latency). Each server writes to its own copy of the posts, so no server's writes reach
 * another's reads. The ratios are the result; nothing here is asserted.
 */

/** How each server is written to and read. */
export interface WriteTarget {
  label: string;
  server: ServerHandle;
  /** The path that edits post `i`'s score, and its method, headers and body. */
  edit: (i: number, score: number) => { path: string; method: 'PATCH' | 'PUT'; body: string };
  headers: Record<string, string>;
  list: string;
  depth: string;
  readHeaders: Record<string, string>;
  /** The rotating lists (peer-rotation.ts) as this server spells them. */
  rotation: Rotation;
}

/** The fields of a WriteRow that every round measures (the CPU ones may be unknown). */
const THROUGHPUT_FIELDS = [
  'editsAlone',
  'listUnderWrites',
  'depthUnderWrites',
  'rotationUnderWrites',
  'editP50UnderReads',
] as const;

export interface WriteRow {
  label: string;
  editsAlone: number;
  /** CPU ms per edit answered, of the server and of the engine (null when /proc can't tell). */
  editServerCpuMs: number | null;
  editEngineCpuMs: number | null;
  listUnderWrites: number;
  depthUnderWrites: number;
  rotationUnderWrites: number;
  editP50UnderReads: number;
}

/** The service's post ids in seed order, to edit one at random. */
export async function servicePostIds(db: Db): Promise<string[]> {
  const docs = await objectsCollection(db)
    .find({ type: 'posts' }, { projection: { _id: 1 } })
    .sort({ _id: 1 })
    .toArray();
  return docs.map((d) => d._id.toHexString());
}

export function serviceTarget(
  label: string,
  server: ServerHandle,
  keys: { readKey: string; writeKey: string },
  ids: readonly string[],
  posts: number,
): WriteTarget {
  return {
    label,
    server,
    edit: (i, score) => ({
      path: `/v3/buckets/${PEER_BUCKET_SLUG}/objects/${ids[i % ids.length] ?? ''}`,
      method: 'PATCH',
      body: JSON.stringify({ metadata: { score } }),
    }),
    headers: { Authorization: `Bearer ${keys.writeKey}`, 'Content-Type': 'application/json' },
    list: servicePath(keys.readKey, { useCache: 'false' }),
    depth: servicePath(keys.readKey, { useCache: 'false', depth: '1' }),
    readHeaders: {},
    rotation: serviceRotation(label, server, keys.readKey, posts),
  };
}

/** The label of Parse doing the service's durable work on each edit (parse-peer.ts). */
export const PARSE_SAME_WORK = 'Parse+work';

export function parseTarget(
  server: ServerHandle,
  posts: number,
  list: string,
  depth: string,
  label = 'Parse',
): WriteTarget {
  const headers = { 'X-Parse-Application-Id': PARSE_APP_ID };
  return {
    label,
    server,
    edit: (i, score) => ({
      path: `${PARSE_MOUNT}/classes/Post/p${(i % posts).toString(36).padStart(9, '0')}`,
      method: 'PUT',
      body: JSON.stringify({ score }),
    }),
    headers: { ...headers, 'Content-Type': 'application/json' },
    list,
    depth,
    readHeaders: headers,
    rotation: parseRotation(server, posts),
  };
}

const random = (n: number) => Math.floor(Math.random() * n);

export interface EditsAlone {
  rps: number;
  serverCpuMs: number | null;
  engineCpuMs: number | null;
}

const perEdit = (after: number | null, before: number | null, edits: number) =>
  after === null || before === null || edits === 0 ? null : (after - before) / edits;

/**
 * Edits at random posts from `connections` connections for `seconds`: edits per second answered
 * 2xx, and the CPU each edit cost the server and the engine, to tell which side bounds the rate.
 */
export async function editsAlone(
  t: WriteTarget,
  posts: number,
  connections: number,
  seconds: number,
  serverPids: ReadonlySet<number>,
): Promise<EditsAlone> {
  const server0 = cpuMsOf(t.server.pid);
  const engine0 = descendantCpuMs(serverPids);
  const result = await autocannon({
    url: t.server.baseUrl,
    connections,
    duration: seconds,
    headers: t.headers,
    requests: [
      {
        setupRequest: (req) => {
          const e = t.edit(random(posts), random(1000));
          return { ...req, method: e.method, path: e.path, body: e.body };
        },
      },
    ],
  });
  const edits = result['2xx'];
  return {
    rps: edits / result.duration,
    serverCpuMs: perEdit(cpuMsOf(t.server.pid), server0, edits),
    engineCpuMs: perEdit(descendantCpuMs(serverPids), engine0, edits),
  };
}

/** Sends one edit every `everyMs` until stopped; the latencies of those answered 2xx. */
function editStream(t: WriteTarget, posts: number, everyMs: number): { stop: () => Promise<number[]> } {
  const latencies: number[] = [];
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const e = t.edit(random(posts), random(1000));
    const started = performance.now();
    const sent = fetch(t.server.baseUrl + e.path, { method: e.method, headers: t.headers, body: e.body })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.ok) latencies.push(performance.now() - started);
      })
      .catch(() => undefined)
      .finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  }, everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(inFlight);
      return latencies;
    },
  };
}

export const ms = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(2)} ms`);

/** The middle value (of an even count, the mean of the two middle ones: with 2 rounds, not the lower); NaN left out. */
export function median(values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  const mid = sorted.length / 2;
  if (sorted.length === 0) return NaN;
  return Number.isInteger(mid) ? (sorted[mid - 1]! + sorted[mid]!) / 2 : sorted[Math.floor(mid)]!;
}

/** Of records with the numeric fields `keys`, the median of each field. */
export function medianEach<K extends string>(
  records: readonly Record<K, number>[],
  keys: readonly K[],
): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, median(records.map((r) => r[k]))])) as Record<K, number>;
}

/** A ratio with two decimals; n/a where it could not be taken. */
export const ratioText = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a');

/** Reads of `path` per second while one edit lands every 50 ms, and those edits' latencies. */
async function readsUnderWrites(
  t: WriteTarget,
  path: string,
  posts: number,
  connections: number,
  seconds: number,
): Promise<{ rps: number; latencies: number[] }> {
  const stream = editStream(t, posts, 50);
  const result = await load(t.server.baseUrl + path, connections, seconds, t.readHeaders);
  return { rps: result['2xx'] / result.duration, latencies: await stream.stop() };
}

/**
 * The rotating lists read per second while one edit lands every 50 ms, after one pass over them
 * under the same edits: the edits alone before this left every kept order far behind, and at
 * 50,000 posts a pass of first reads alone would fill the round.
 */
async function rotationUnderWrites(t: WriteTarget, posts: number, connections: number, seconds: number) {
  const stream = editStream(t, posts, 50);
  await readEachOnce(t.rotation, connections);
  const rps = await rotatingRps(t.rotation, connections, seconds);
  await stream.stop();
  return rps;
}

/** One round of every scenario of one target. */
async function writeRound(
  t: WriteTarget,
  posts: number,
  connections: number,
  seconds: number,
  serverPids: ReadonlySet<number>,
  underReads: boolean,
): Promise<WriteRow> {
  await editsAlone(t, posts, connections, 1, serverPids);
  const alone = await editsAlone(t, posts, connections, seconds, serverPids);
  const none = { rps: NaN, latencies: [] };
  const list = underReads ? await readsUnderWrites(t, t.list, posts, connections, seconds) : none;
  const depth = underReads ? await readsUnderWrites(t, t.depth, posts, connections, seconds) : none;
  const rotation = underReads ? await rotationUnderWrites(t, posts, connections, seconds) : NaN;
  const row = {
    label: t.label,
    editsAlone: alone.rps,
    editServerCpuMs: alone.serverCpuMs,
    editEngineCpuMs: alone.engineCpuMs,
    listUnderWrites: list.rps,
    depthUnderWrites: depth.rps,
    rotationUnderWrites: rotation,
    editP50UnderReads: median([...list.latencies, ...depth.latencies]),
  };
  const reads = underReads
    ? `; under one edit per 50 ms: list ${list.rps.toFixed(1)} req/s, depth=1 ${depth.rps.toFixed(1)} req/s, rotating lists ${rotation.toFixed(1)} req/s; edit p50 ${row.editP50UnderReads.toFixed(1)} ms`
    : '';
  console.log(
    `  ${t.label.padEnd(10)} edits alone ${alone.rps.toFixed(1)}/s (CPU per edit: server ${ms(alone.serverCpuMs)}, engine ${ms(alone.engineCpuMs)})${reads}`,
  );
  return row;
}

/** How the write rounds run: `underReads` false measures edits alone (shorter rounds, so more of them fit). */
export interface WriteRounds {
  connections: number;
  seconds: number;
  rounds: number;
  warmupSeconds: number;
  underReads: boolean;
}

/** Each target's figures (medians of its rounds), and every round's rows, for ratios within a round. */
export interface WriteResults {
  medians: WriteRow[];
  rounds: WriteRow[][];
}

/**
 * Every target once per round, interleaved round by round; each figure the median of its rounds.
 * Each server edits for `warmupSeconds` first: JIT in Node and the JVM halves the CPU per edit
 * over the first minute or so, and a short warm-up would measure that instead of the servers.
 */
export async function measureWrites(
  targets: readonly WriteTarget[],
  posts: number,
  serverPids: ReadonlySet<number>,
  { connections, seconds, rounds, warmupSeconds, underReads }: WriteRounds,
): Promise<WriteResults> {
  for (const t of targets) {
    const warm = await editsAlone(t, posts, connections, warmupSeconds, serverPids);
    console.log(`  ${t.label.padEnd(10)} warmed ${warmupSeconds} s: ${warm.rps.toFixed(1)} edits/s`);
  }
  const all = new Map<string, WriteRow[]>(targets.map((t) => [t.label, []]));
  const byRound: WriteRow[][] = [];
  for (let round = 1; round <= rounds; round++) {
    console.log(`Write round ${round} of ${rounds}`);
    const rows: WriteRow[] = [];
    for (const t of inTurn(targets, round)) {
      const row = await writeRound(t, posts, connections, seconds, serverPids, underReads);
      all.get(t.label)?.push(row);
      rows.push(row);
    }
    byRound.push(rows);
  }
  const medians = targets.map((t) => {
    const rows = all.get(t.label) ?? [];
    const cpu = (pick: (r: WriteRow) => number | null) => {
      const known = rows.map(pick).filter((v): v is number => v !== null);
      return known.length === 0 ? null : median(known);
    };
    return {
      label: t.label,
      ...medianEach(rows, THROUGHPUT_FIELDS),
      editServerCpuMs: cpu((r) => r.editServerCpuMs),
      editEngineCpuMs: cpu((r) => r.editEngineCpuMs),
    };
  });
  return { medians, rounds: byRound };
}
