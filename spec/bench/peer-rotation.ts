import { inTurn } from './rounds.js';
import assert from 'node:assert/strict';
import autocannon from 'autocannon';
import { PEER_GENRES } from './peer-data.js';
import { PARSE_APP_ID, PARSE_MOUNT } from './parse-peer.js';
import { PEER_BUCKET_SLUG } from './peer-seed.js';
import type { ServerHandle } from './server-handle.js';

/*
 * Rotating lists: 300 list URLs (10 filters × 3 sorts × 10 pages of 50, each with its total),
 * read in turn, so no one URL's kept order or page carries the run the way a single repeated list
 * does. The same 300 lists as each server spells them; every tenth is checked to answer the same
 * page and total on each server before the load.
 */

const ROTATION_PAGE = 50;
const ROTATION_PAGES = 10;

/** A filter as each server spells it: the service's `query` (type added) and Parse's `where`. */
interface Filter {
  service: Record<string, unknown>;
  parse: Record<string, unknown>;
}

function filters(posts: number): Filter[] {
  // Scores are 0..posts-1 times 10 (peer-data.ts): below half of that is half the posts.
  const half = posts * 5;
  return [
    ...PEER_GENRES.map((g) => ({ service: { 'metadata.genre': g }, parse: { genre: g } })),
    { service: { 'metadata.score': { $lt: half } }, parse: { score: { $lt: half } } },
    { service: { 'metadata.genre': { $in: ['g1', 'g6'] } }, parse: { genre: { $in: ['g1', 'g6'] } } },
  ];
}

/**
 * Score descending (a sortable Metafield), oldest first, last edited first (dates; the seed gives
 * every post the same creation and edit time on both servers, and edits move the last one).
 */
const SORTS = [
  { service: '-metadata.score', parse: '-score' },
  { service: 'created_at', parse: 'createdAt' },
  { service: '-modified_at', parse: '-updatedAt' },
];

export interface Rotation {
  label: string;
  server: ServerHandle;
  paths: string[];
  headers: Record<string, string>;
  /** Where the answer keeps its items and total. */
  list: string;
  total: string;
}

function each<T>(posts: number, path: (f: Filter, sort: (typeof SORTS)[number], skip: number) => T): T[] {
  const out: T[] = [];
  for (const f of filters(posts))
    for (const sort of SORTS)
      for (let page = 0; page < ROTATION_PAGES; page++) out.push(path(f, sort, page * ROTATION_PAGE));
  return out;
}

export function serviceRotation(label: string, server: ServerHandle, readKey: string, posts: number): Rotation {
  const paths = each(posts, (f, sort, skip) => {
    const params = new URLSearchParams({
      query: JSON.stringify({ type: 'posts', ...f.service }),
      sort: sort.service,
      limit: String(ROTATION_PAGE),
      skip: String(skip),
      read_key: readKey,
      useCache: 'false',
    });
    return `/v3/buckets/${PEER_BUCKET_SLUG}/objects?${params}`;
  });
  return { label, server, paths, headers: {}, list: 'objects', total: 'total' };
}

export function parseRotation(server: ServerHandle, posts: number): Rotation {
  const paths = each(posts, (f, sort, skip) => {
    const params = new URLSearchParams({
      where: JSON.stringify(f.parse),
      order: sort.parse,
      limit: String(ROTATION_PAGE),
      skip: String(skip),
      count: '1',
    });
    return `${PARSE_MOUNT}/classes/Post?${params}`;
  });
  return {
    label: 'Parse',
    server,
    paths,
    headers: { 'X-Parse-Application-Id': PARSE_APP_ID },
    list: 'results',
    total: 'count',
  };
}

async function pageOf(r: Rotation, path: string): Promise<{ titles: string[]; total: unknown }> {
  const res = await fetch(r.server.baseUrl + path, { headers: r.headers });
  const text = await res.text();
  assert.equal(res.status, 200, `${r.label}: ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as Record<string, unknown>;
  const items = body[r.list] as Array<{ title: string }>;
  return { titles: items.map((i) => i.title), total: body[r.total] };
}

/** Every tenth list answers the same titles in the same order, and the same total, on every server. */
export async function assertSameRotations(rotations: readonly Rotation[]): Promise<void> {
  const [reference, ...others] = rotations;
  if (!reference) return;
  for (let i = 0; i < reference.paths.length; i += 10) {
    const expected = await pageOf(reference, reference.paths[i]!);
    assert.ok(expected.titles.length > 0, `${reference.label}: ${reference.paths[i]} answers items`);
    for (const r of others) {
      const page = await pageOf(r, r.paths[i]!);
      assert.deepEqual(page, expected, `${r.label} answers list ${i} of the rotation as ${reference.label} does`);
    }
  }
}

/** Reads the rotation's lists in turn from `connections` connections for `seconds`: lists per second answered 2xx. */
export async function rotatingRps(r: Rotation, connections: number, seconds: number): Promise<number> {
  let next = 0;
  const result = await autocannon({
    url: r.server.baseUrl,
    connections,
    duration: seconds,
    headers: r.headers,
    timeout: 60,
    requests: [
      {
        setupRequest: (req) => {
          const path = r.paths[next++ % r.paths.length] ?? '/';
          return { ...req, method: 'GET', path };
        },
      },
    ],
  });
  return result['2xx'] / result.duration;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;

/** Reads every list of the rotation once, from `connections` connections. */
export async function readEachOnce(r: Rotation, connections: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = next++; i < r.paths.length; i = next++)
        await (await fetch(r.server.baseUrl + r.paths[i]!, { headers: r.headers })).arrayBuffer();
    }),
  );
}

/**
 * Each rotation read after a warm-up, interleaved round by round; the median of its rounds. The
 * warm-up reads every list once, then for `warmupSeconds`: a timed warm-up alone may not reach
 * every list when they are slow (at 50,000 posts a pass takes 20 s), and the rounds would then
 * measure first reads.
 */
export async function measureRotations(
  rotations: readonly Rotation[],
  connections: number,
  seconds: number,
  rounds: number,
  warmupSeconds: number,
): Promise<Map<string, number>> {
  const all = new Map<string, number[]>(rotations.map((r) => [r.label, []]));
  for (const r of rotations) {
    await readEachOnce(r, connections);
    await rotatingRps(r, connections, warmupSeconds);
  }
  for (let round = 1; round <= rounds; round++) {
    for (const r of inTurn(rotations, round)) {
      const rps = await rotatingRps(r, connections, seconds);
      console.log(`  round ${round}: ${r.label.padEnd(10)} rotating lists ${rps.toFixed(1)} req/s`);
      all.get(r.label)?.push(rps);
    }
  }
  return new Map([...all].map(([label, values]) => [label, median(values)]));
}

/** Each server's rotating lists per second against Parse's (>= 1.0: as fast or faster). */
export function printRotationRatios(rps: ReadonlyMap<string, number>): void {
  const parse = rps.get('Parse');
  console.log('\nRotating lists (300 URLs: 10 filters x 3 sorts x 10 pages of 50), no writes, medians of the rounds');
  for (const [label, value] of rps) {
    const against = parse === undefined || label === 'Parse' ? '' : `  (${(value / parse).toFixed(2)} of Parse's)`;
    console.log(`  ${label.padEnd(10)} ${value.toFixed(1)} req/s${against}`);
  }
}
