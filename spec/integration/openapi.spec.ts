import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { AppState } from '../../lib/cache/app-state.js';
import { v1Routes } from '../../lib/legacy/v1/index.js';
import { queryName } from '../../lib/query/read-params.js';
import { v3Routes, type RouteDeps } from '../../lib/routes/index.js';
import { freshHarness, type Harness } from '../support/harness.js';

/** The parts of the document these tests read (a type alias, so the validator takes it as a record). */
type OpenApiDoc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
};

/** "/buckets/:slug/objects/:object_id" → "/buckets/{slug}/objects/{object_id}" */
function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** Every route the app mounts as the document addresses it, with every query parameter it reads. */
function servedRoutes(deps: RouteDeps): { method: string; path: string; reads: string[] }[] {
  return [
    ...v3Routes(deps).map((r) => ({ ...r, reads: r.params.names.map(queryName) })),
    ...v1Routes(deps).map((r) => ({
      ...r,
      path: `/v1${r.path}`,
      reads: [...r.params.names.map(queryName), ...r.v1Params],
    })),
  ];
}

/** Path item keys that are not operations. */
const NOT_OPERATIONS = new Set(['parameters', 'servers', 'summary', 'description']);

describe('GET /v3/openapi.json', () => {
  let h: Harness;
  let doc: OpenApiDoc;
  before(async () => {
    h = await freshHarness();
    doc = (await request(h.app).get('/v3/openapi.json').expect(200)).body;
  });

  it('is a valid OpenAPI 3.1 document, version 3.0.0', async () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '3.0.0');
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  it('describes every route the app serves, with its method', () => {
    const missing = servedRoutes({
      config: h.config,
      db: h.db,
      state: new AppState(h.config, h.db, () => {}),
      log: () => {},
    })
      .filter((r) => !doc.paths[openApiPath(r.path)]?.[r.method])
      .map((r) => `${r.method.toUpperCase()} ${r.path}`);
    assert.deepEqual(missing, []);
  });

  it('describes every legacy v1 route as deprecated, tagged legacy-v1, addressed from the server root', () => {
    const v1 = Object.entries(doc.paths).filter(([p]) => p.startsWith('/v1/'));
    assert.ok(v1.length > 0);
    const wrong: string[] = [];
    for (const [p, item] of v1) {
      const servers = item.servers as { url: string }[] | undefined;
      if (servers?.[0]?.url.endsWith('/v3') !== false) wrong.push(`${p}: servers`);
      for (const [m, op] of Object.entries(item)) {
        if (NOT_OPERATIONS.has(m)) continue;
        const { tags, deprecated } = op as { tags?: string[]; deprecated?: boolean };
        if (tags?.join() !== 'legacy-v1' || deprecated !== true) wrong.push(`${m} ${p}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('describes no route the app does not serve', () => {
    const served = new Set(
      servedRoutes({ config: h.config, db: h.db, state: new AppState(h.config, h.db, () => {}), log: () => {} }).map(
        (r) => `${r.method} ${openApiPath(r.path)}`,
      ),
    );
    const extra: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const m of Object.keys(ops)) if (!NOT_OPERATIONS.has(m) && !served.has(`${m} ${p}`)) extra.push(`${m} ${p}`);
    }
    assert.deepEqual(extra, []);
  });

  it("lists exactly the query parameters each route reads, by the name clients send (use_cache is useCache's alias)", () => {
    type Param = { in: string; name: string } | { $ref: string };
    const shared = doc.components.parameters as Record<string, { in: string; name: string }>;
    const documented = (op: { parameters?: Param[] } | undefined): string[] =>
      (op?.parameters ?? [])
        .map((p) => ('$ref' in p ? shared[p.$ref.split('/').pop() ?? ''] : p))
        .filter((p) => p?.in === 'query')
        .map((p) => p?.name ?? '')
        .sort();
    const mismatched = servedRoutes({
      config: h.config,
      db: h.db,
      state: new AppState(h.config, h.db, () => {}),
      log: () => {},
    })
      .map((r) => ({
        route: `${r.method.toUpperCase()} ${r.path}`,
        reads: [...r.reads].sort(),
        documented: documented(doc.paths[openApiPath(r.path)]?.[r.method] as { parameters?: Param[] }),
      }))
      .filter((r) => r.reads.join() !== r.documented.join());
    assert.deepEqual(mismatched, []);
  });

  it('resolves every component reference', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const target = ref.slice(8, -1);
      assert.match(target, /^#\/components\//, target);
      const [, , section, name] = target.split('/');
      assert.ok(section !== undefined && name !== undefined, `malformed ${target}`);
      assert.ok(doc.components[section]?.[name], `unresolved ${target}`);
    }
  });
});
