import assert from 'node:assert/strict';
import type { Page, PageShape, Scenario } from './measure.js';
import { PEER_PAGE_SIZE, PEER_QUERIED_GENRE } from './peer-data.js';
import { PARSE_APP_ID, PARSE_MOUNT } from './parse-peer.js';
import { PEER_BUCKET_SLUG } from './peer-seed.js';
import type { ServerHandle } from './server-handle.js';

/**
 * The request of the peer comparison, as each server spells it: posts of one genre, sorted by
 * score descending, one page of 100 with the total, without and with the author expanded.
 */

const OURS: PageShape = { list: 'objects', key: 'title', total: 'total' };
const PARSE: PageShape = { list: 'results', key: 'title', total: 'count' };

export function servicePath(readKey: string, extra: Record<string, string>): string {
  const params = new URLSearchParams({
    query: JSON.stringify({ type: 'posts', 'metadata.genre': PEER_QUERIED_GENRE }),
    sort: '-metadata.score',
    limit: String(PEER_PAGE_SIZE),
    read_key: readKey,
    ...extra,
  });
  return `/v3/buckets/${PEER_BUCKET_SLUG}/objects?${params}`;
}

function parsePath(extra: Record<string, string>): string {
  const params = new URLSearchParams({
    where: JSON.stringify({ genre: PEER_QUERIED_GENRE }),
    order: '-score',
    limit: String(PEER_PAGE_SIZE),
    count: '1',
    ...extra,
  });
  return `${PARSE_MOUNT}/classes/Post?${params}`;
}

export interface PeerServers {
  service: ServerHandle;
  /** The service keeping no list orders (LIST_ORDER_MAX_IDS=0): every read matches and sorts. */
  unkept: ServerHandle;
  parse: ServerHandle;
  raw: ServerHandle;
  /** The services of other builds (BENCH_COMPARE) by label, for before/after in one run. */
  compare: ReadonlyArray<{ label: string; server: ServerHandle }>;
}

/** Scenario names the report and the ratios refer to. */
export const S = {
  parseList: 'Parse list',
  parseInclude: 'Parse include=author',
  list: 'service list, cache off',
  depth1: 'service depth=1, cache off',
  cached: 'service list, cache on',
  listUnkept: 'service list, no kept order',
  depth1Unkept: 'service depth=1, no kept order',
  rawList: 'raw driver list',
  rawExpanded: 'raw driver + author $in',
} as const;

/** The scenarios of a build compared with this one. */
export const compared = (label: string) => ({
  list: `${label}: service list, cache off`,
  depth1: `${label}: service depth=1, cache off`,
});

export function peerScenarios(servers: PeerServers, readKey: string): Scenario[] {
  const parseHeaders = { 'X-Parse-Application-Id': PARSE_APP_ID };
  const list = servicePath(readKey, { useCache: 'false' });
  const depth1 = servicePath(readKey, { useCache: 'false', depth: '1' });
  const raw = `/posts?genre=${PEER_QUERIED_GENRE}`;
  const scenarios: Scenario[] = [
    { name: S.parseList, server: servers.parse, path: parsePath({}), shape: PARSE, headers: parseHeaders },
    {
      name: S.parseInclude,
      server: servers.parse,
      path: parsePath({ include: 'author' }),
      shape: PARSE,
      headers: parseHeaders,
    },
    { name: S.list, server: servers.service, path: list, shape: OURS },
    { name: S.depth1, server: servers.service, path: depth1, shape: OURS },
    { name: S.cached, server: servers.service, path: servicePath(readKey, {}), shape: OURS },
    { name: S.listUnkept, server: servers.unkept, path: list, shape: OURS },
    { name: S.depth1Unkept, server: servers.unkept, path: depth1, shape: OURS },
    { name: S.rawList, server: servers.raw, path: raw, shape: OURS },
    { name: S.rawExpanded, server: servers.raw, path: `${raw}&expand=1`, shape: OURS },
  ];
  for (const { label, server } of servers.compare) {
    scenarios.push(
      { name: compared(label).list, server, path: list, shape: OURS },
      { name: compared(label).depth1, server, path: depth1, shape: OURS },
    );
  }
  return scenarios;
}

/** The author title of every item of an expanded page, wherever the server puts it. */
function authorTitles(page: Page, list: string, at: (item: Record<string, unknown>) => unknown): string[] {
  const items = page.body[list] as Array<Record<string, unknown>>;
  return items.map((item) => String((at(item) as { title?: unknown } | null)?.title));
}

/** Every server answers the same page, the same total and the same authors; fails loudly otherwise. */
export function assertSamePages(pages: ReadonlyMap<string, Page>): void {
  const get = (name: string) => {
    const page = pages.get(name);
    assert.ok(page, `a page for ${name}`);
    return page;
  };
  const reference = get(S.parseList);
  for (const [name, page] of pages) {
    assert.deepEqual(page.keys, reference.keys, `${name} answers the same titles in the same order as Parse`);
    assert.equal(page.total, reference.total, `${name} answers the same total as Parse`);
  }
  const fromMetadata = (item: Record<string, unknown>) => (item.metadata as Record<string, unknown>).author;
  const expected = authorTitles(get(S.parseInclude), 'results', (item) => item.author);
  assert.ok(!expected.includes('undefined'), 'Parse expanded every author');
  const expanded = [...pages.keys()].filter((name) => name === S.rawExpanded || name.includes('depth=1'));
  for (const name of expanded) {
    assert.deepEqual(authorTitles(get(name), 'objects', fromMetadata), expected, `${name} expands the same authors`);
  }
}
