import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { AppState } from '../../lib/cache/app-state.js';
import { queryName } from '../../lib/query/read-params.js';
import { v3Routes } from '../../lib/routes/index.js';
import { v1Routes } from '../../lib/legacy/v1/index.js';
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
    const missing = v3Routes({
      config: h.config,
      db: h.db,
      state: new AppState(h.config, h.db, () => {}),
      log: () => {},
    })
      .filter((r) => !doc.paths[openApiPath(r.path)]?.[r.method])
      .map((r) => `${r.method.toUpperCase()} ${r.path}`);
    assert.deepEqual(missing, []);
  });

  const legacyV1 = () => v1Routes(h.config, h.db, new AppState(h.config, h.db, () => {}));

  it('describes every legacy v1 route, tagged legacy-v1, deprecated, addressed from the server root', () => {
    const wrong = legacyV1()
      .map((r) => ({
        r,
        op: doc.paths[openApiPath(`/v1${r.path}`)]?.[r.method] as { tags?: string[]; deprecated?: boolean },
      }))
      .filter(({ op }) => op?.tags?.[0] !== 'legacy-v1' || op.deprecated !== true)
      .map(({ r }) => `${r.method.toUpperCase()} /v1${r.path}`);
    assert.deepEqual(wrong, []);
    const servers = doc.paths['/v1/{slug}/objects']?.servers as { url: string }[] | undefined;
    assert.ok(servers?.[0] && !servers[0].url.endsWith('/v3'));
  });

  it('describes no route the app does not serve', () => {
    const served = new Set(
      v3Routes({ config: h.config, db: h.db, state: new AppState(h.config, h.db, () => {}), log: () => {} }).map(
        (r) => `${r.method} ${openApiPath(r.path)}`,
      ),
    );
    for (const r of legacyV1()) served.add(`${r.method} ${openApiPath(`/v1${r.path}`)}`);
    const extra: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const m of Object.keys(ops)) if (m !== 'parameters' && !served.has(`${m} ${p}`)) extra.push(`${m} ${p}`);
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
    const mismatched = v3Routes({
      config: h.config,
      db: h.db,
      state: new AppState(h.config, h.db, () => {}),
      log: () => {},
    })
      .map((r) => ({
        route: `${r.method.toUpperCase()} ${r.path}`,
        reads: r.params.names.map(queryName).sort(),
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
