import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { AppState } from '../../lib/app-state.js';
import { v2Routes } from '../../lib/api/legacy/v2/routes.js';
import { queryName } from '../../lib/query/read-params.js';
import { v3Routes } from '../../lib/registry/v3.js';
import { takesIdempotencyKey, type RouteDef } from '../../lib/routes/route-table.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { v1Routes } from '../../lib/api/legacy/v1/index.js';

/** The parts of the document these tests read (a type alias, so the validator takes it as a record). */
type OpenApiDoc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
};

/** "/buckets/:slug/objects/:object_id" → "/buckets/{slug}/objects/{object_id}"; a wildcard `*path` → `{path}`. */
function openApiPath(expressPath: string): string {
  return expressPath.replace(/[:*]([A-Za-z_]+)/g, '{$1}');
}

type Param = { in: string; name: string } | { $ref: string };

/** The query parameters an operation documents, by name, sorted; shared ones are resolved. */
function documentedQuery(doc: OpenApiDoc, path: string, method: string): string[] {
  const shared = doc.components.parameters as Record<string, { in: string; name: string }>;
  const op = doc.paths[path]?.[method] as { parameters?: Param[] } | undefined;
  return (op?.parameters ?? [])
    .map((p) => ('$ref' in p ? shared[p.$ref.split('/').pop() ?? ''] : p))
    .filter((p) => p?.in === 'query')
    .map((p) => p?.name ?? '')
    .sort();
}

/** Routes whose query parameters differ from what the document lists for them. */
function paramMismatches(doc: OpenApiDoc, routes: readonly RouteDef[]) {
  return routes
    .map((r) => ({
      route: `${r.method.toUpperCase()} ${r.path}`,
      reads: r.params.names.map(queryName).sort(),
      documented: documentedQuery(doc, openApiPath(r.path), r.method),
    }))
    .filter((r) => r.reads.join() !== r.documented.join());
}

/** Whether an operation documents the Idempotency-Key request header (shared parameters resolved). */
function documentsIdempotencyKey(doc: OpenApiDoc, path: string, method: string): boolean {
  const shared = doc.components.parameters as Record<string, { in: string; name: string }>;
  const op = doc.paths[path]?.[method] as { parameters?: Param[] } | undefined;
  return (op?.parameters ?? [])
    .map((p) => ('$ref' in p ? shared[p.$ref.split('/').pop() ?? ''] : p))
    .some((p) => p?.in === 'header' && p.name === 'Idempotency-Key');
}

/** Legacy paths are described beside v3's, each version checked by its own tests. */
const LEGACY_PATH = /^\/v[12]\//;

describe('GET /v3/openapi.json', () => {
  let h: Harness;
  let doc: OpenApiDoc;
  before(async () => {
    h = await freshHarness();
    doc = (await request(h.app).get('/v3/openapi.json').expect(200)).body;
  });
  after(() => {
    assert.deepEqual(h.errors, []);
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
      .filter((r) => !doc.paths[openApiPath(`/v3${r.path}`)]?.[r.method])
      .map((r) => `${r.method.toUpperCase()} ${r.path}`);
    assert.deepEqual(missing, []);
  });

  it('describes no route the app does not serve', () => {
    const served = new Set(
      v3Routes({ config: h.config, db: h.db, state: new AppState(h.config, h.db, () => {}), log: () => {} }).map(
        (r) => `${r.method} ${openApiPath(`/v3${r.path}`)}`,
      ),
    );
    const extra: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      if (LEGACY_PATH.test(p)) continue;
      for (const m of Object.keys(ops)) if (m !== 'parameters' && !served.has(`${m} ${p}`)) extra.push(`${m} ${p}`);
    }
    assert.deepEqual(extra, []);
  });

  it("lists exactly the query parameters each route reads, by the name clients send (use_cache is useCache's alias)", () => {
    const routes = v3Routes({
      config: h.config,
      db: h.db,
      state: new AppState(h.config, h.db, () => {}),
      log: () => {},
    }).map((r) => ({ ...r, path: `/v3${r.path}` }));
    assert.deepEqual(paramMismatches(doc, routes), []);
  });

  describe('legacy v1 routes', () => {
    /** Every v1 route as the document addresses it, with every query parameter it reads, its v1-only ones included. */
    const v1Served = () =>
      v1Routes({ config: h.config, db: h.db, state: new AppState(h.config, h.db, () => {}), log: () => {} })
        // GET /v1/{slug}/ is GET /v1/{slug} (its description says so): linters refuse a trailing slash.
        .filter((r) => r.path !== '/:slug/')
        .map((r) => ({
          method: r.method,
          path: openApiPath(`/v1${r.path}`),
          reads: [...r.params.names.map(queryName), ...r.v1Params].sort(),
        }));
    const v1Described = (): string[] =>
      Object.entries(doc.paths)
        .filter(([p]) => p.startsWith('/v1/'))
        .flatMap(([p, ops]) =>
          Object.keys(ops)
            .filter((m) => m !== 'parameters')
            .map((m) => `${m} ${p}`),
        );

    it('describes every v1 route with its method, and no /v1 operation the app does not serve', () => {
      const served = v1Served().map((r) => `${r.method} ${r.path}`);
      assert.deepEqual([...served].sort(), v1Described().sort());
      assert.ok(served.includes('put /v1/{slug}/edit-object'));
    });

    it('lists exactly the query parameters each v1 route reads, the v1-only ones included', () => {
      const mismatched = v1Served()
        .map((r) => ({
          route: `${r.method} ${r.path}`,
          reads: r.reads,
          documented: documentedQuery(doc, r.path, r.method),
        }))
        .filter((r) => r.reads.join() !== r.documented.join());
      assert.deepEqual(mismatched, []);
      assert.ok(documentedQuery(doc, '/v1/{slug}/objects', 'get').includes('metadata'));
    });

    it('tags every v1 operation legacy-v1, marks it deprecated', () => {
      const wrong = Object.entries(doc.paths)
        .filter(([p]) => p.startsWith('/v1/'))
        .flatMap(([p, item]) =>
          Object.entries(item)
            .filter(([m]) => m !== 'parameters')
            .filter(([, op]) => {
              const o = op as { tags?: string[]; deprecated?: boolean };
              return o.deprecated !== true || o.tags?.join() !== 'legacy-v1';
            })
            .map(([m]) => `${m} ${p}`),
        );
      assert.deepEqual(wrong, []);
    });
  });

  it('documents the Idempotency-Key header on exactly the routes that take it, every version', () => {
    const deps = { config: h.config, db: h.db, state: new AppState(h.config, h.db, () => {}), log: () => {} };
    const routes = [
      ...v3Routes(deps).map((r) => ({ r, path: `/v3${r.path}` })),
      ...v2Routes(deps, v3Routes(deps)).map((r) => ({ r, path: `/v2${r.path}` })),
      ...v1Routes(deps).map((r) => ({ r, path: `/v1${r.path}` })),
    ];
    const differ = routes
      .filter(({ r, path }) => takesIdempotencyKey(r) !== documentsIdempotencyKey(doc, openApiPath(path), r.method))
      .map(({ r, path }) => `${r.method} ${path} takes it: ${takesIdempotencyKey(r)}`);
    assert.deepEqual(differ, []);
    assert.ok(documentsIdempotencyKey(doc, '/v3/buckets/{slug}/objects', 'post'));
    assert.ok(documentsIdempotencyKey(doc, '/v1/{slug}/add-object', 'post'));
    const post = doc.paths['/v3/buckets/{slug}/objects']?.post as { responses: Record<string, unknown> };
    for (const status of ['409', '422']) assert.ok(status in post.responses, status);
  });

  it('accepts an account token wherever a Bucket key is, with its 403', () => {
    const ops = doc.paths['/v3/buckets/{slug}/objects'] as Record<string, { security: object[]; responses: object }>;
    for (const op of [ops.get, ops.post]) {
      assert.ok(op?.security.some((s) => 'accountToken' in s));
      assert.ok(op && '403' in op.responses);
    }
    assert.ok(doc.components.securitySchemes?.accountToken);
  });

  it('lets a keyed operation go without a credential too, as a Bucket without keys accepts it', () => {
    const ops = doc.paths['/v3/buckets/{slug}/objects'] as Record<string, { security: object[] }>;
    for (const op of [ops.get, ops.post]) assert.ok(op?.security.some((s) => Object.keys(s).length === 0));
  });

  it('lists the 400 a malformed pretty gets on /status and /openapi.json, which answer it', async () => {
    for (const path of ['/status', '/openapi.json']) {
      const op = doc.paths[`/v3${path}`] as { get: { responses: Record<string, unknown> } };
      assert.ok('400' in op.get.responses, path);
      const res = await request(h.app).get(`/v3${path}?pretty=x`).expect(400);
      assert.equal(res.body.code, 'invalid_parameter');
    }
  });

  it('gives every operation its own operationId, the outgoing webhooks included (generators name functions by it)', () => {
    const ops = [...Object.values(doc.paths), ...Object.values((doc as { webhooks?: object }).webhooks ?? {})].flatMap(
      (item) => Object.values(item as Record<string, { operationId?: string }>),
    );
    const ids = ops.map((op) => op.operationId).filter((id): id is string => typeof id === 'string');
    assert.equal(ids.length, ops.filter((op) => typeof op === 'object' && 'responses' in op).length);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
    );
  });

  it('asks no credential of a webhook receiver, and types metadata as an open object a typed client can fill', () => {
    const hooks = Object.values(
      (doc as { webhooks?: Record<string, { post: { security?: unknown } }> }).webhooks ?? {},
    );
    assert.ok(hooks.length > 0);
    assert.deepEqual(
      hooks.filter((h) => !Array.isArray(h.post.security) || (h.post.security as unknown[]).length > 0),
      [],
    );
    const schemas = doc.components.schemas as Record<string, { properties: { metadata: object } }>;
    for (const name of ['PartialObject', 'ObjectCreate', 'ObjectPatch', 'Revision', 'RevisionCreate']) {
      assert.equal(
        (schemas[name]?.properties.metadata as { additionalProperties?: unknown }).additionalProperties,
        true,
        name,
      );
    }
  });

  it('lists the 400 every operation can answer (its parameters are read first)', async () => {
    const ops = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item as Record<string, { responses?: Record<string, unknown> }>)
        .filter(([, op]) => typeof op === 'object' && 'responses' in op)
        .map(([m, op]) => ({ at: `${m} ${p}`, answers: Object.keys(op.responses ?? {}) })),
    );
    assert.deepEqual(
      ops.filter((o) => !o.answers.includes('400')).map((o) => o.at),
      [],
    );
    // What the document promises, the app does: a Bucket route refuses a malformed `pretty` with the error body.
    const res = await request(h.app).get('/v3/buckets/nobody/blocks?pretty=maybe').expect(400);
    assert.equal(res.body.code, 'invalid_parameter');
  });

  it('serves every operation at its one server plus its path, legacy paths included (generators use one base URL)', async () => {
    const servers = (doc as { servers?: { url: string }[] }).servers ?? [];
    assert.deepEqual(servers, [{ url: h.config.publicUrl }]);
    const unresolved: string[] = [];
    for (const [p, item] of Object.entries(doc.paths)) {
      assert.equal(item.servers, undefined, p);
      for (const method of Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))) {
        const url = new URL(`${servers[0]?.url ?? ''}${p.replace(/\{[^}]+\}/g, 'x')}`);
        const res = await request(h.app)[method as 'get'](url.pathname);
        if (res.body?.message === 'Route not found' || res.body?.code === 'route_not_found')
          unresolved.push(`${method} ${p} → ${url.pathname}`);
      }
    }
    assert.deepEqual(unresolved, []);
  });

  it('describes the legacy write forms: the write_key body or form field, with no header required', async () => {
    type Op = { security?: object[]; requestBody?: { content: Record<string, { schema?: { properties?: object } }> } };
    const bodyKeyed = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item as Record<string, Op>)
        .filter(([, op]) =>
          Object.values(op.requestBody?.content ?? {}).some(
            (c) => c.schema?.properties && 'write_key' in c.schema.properties,
          ),
        )
        .filter(([, op]) => op.security?.some((s) => 'writeKey' in s))
        .map(([m, op]) => ({ m, p, op, json: 'application/json' in (op.requestBody?.content ?? {}) })),
    );
    const at = bodyKeyed.map((o) => `${o.m} ${o.p}`);
    for (const expected of [
      'post /v1/{slug}/add-object',
      'delete /v1/{slug}/delete-object',
      'post /v3/buckets/{slug}/media',
    ])
      assert.ok(at.includes(expected), expected);
    assert.deepEqual(
      bodyKeyed.filter((o) => !o.op.security?.some((s) => Object.keys(s).length === 0)).map((o) => `${o.m} ${o.p}`),
      [],
    );
    // What the document says, the app does: the key in the body (no header) opens each JSON write, a wrong one does not.
    const keys = await h.bucket('body-keyed');
    const refused: string[] = [];
    for (const { m, p } of bodyKeyed.filter((o) => o.json)) {
      const url = p.replace('{slug}', 'body-keyed').replace(/\{[^}]+\}/g, 'x');
      const send = (key: string) => request(h.app)[m as 'post'](url).send({ write_key: key });
      if ((await send(keys.write_key ?? '')).status === 401) refused.push(`${m} ${p}`);
      if ((await send('wrong')).status !== 401) refused.push(`${m} ${p} took a wrong key`);
    }
    assert.deepEqual(refused, []);
    const form = await request(h.app)
      .post('/v3/buckets/body-keyed/media')
      .field('write_key', keys.write_key ?? '')
      .attach('media', Buffer.from('hello'), 'notes.txt');
    assert.equal(form.status, 200, form.text);
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

  describe('legacy v2 routes', () => {
    /** Every v2 route, with the path the document uses (absolute: legacy paths carry their version). */
    const v2Served = (): RouteDef[] => {
      const deps = { config: h.config, db: h.db, state: new AppState(h.config, h.db, () => {}), log: () => {} };
      return v2Routes(deps, v3Routes(deps)).map((r) => ({ ...r, path: `/v2${r.path}` }));
    };
    const v2Described = (): string[] =>
      Object.entries(doc.paths)
        .filter(([p]) => p.startsWith('/v2/'))
        .flatMap(([p, ops]) =>
          Object.keys(ops)
            .filter((m) => m !== 'parameters')
            .map((m) => `${m} ${p}`),
        );

    it('describes every v2 route with its method, and no /v2 operation the app does not serve', () => {
      const served = v2Served().map((r) => `${r.method} ${openApiPath(r.path)}`);
      assert.deepEqual([...served].sort(), v2Described().sort());
      assert.ok(served.includes('get /v2/buckets/{slug}/objects/{object_id}/metafields/{key}'));
    });

    it('lists exactly the query parameters each v2 route reads', () => {
      assert.deepEqual(paramMismatches(doc, v2Served()), []);
      assert.ok(documentedQuery(doc, '/v2/buckets/{slug}/objects', 'get').includes('show_metafields'));
    });

    it('tags every v2 operation legacy-v2, marks it deprecated', () => {
      const wrong = Object.entries(doc.paths)
        .filter(([p]) => p.startsWith('/v2/'))
        .flatMap(([p, item]) =>
          Object.entries(item)
            .filter(([m]) => m !== 'parameters')
            .filter(([, op]) => {
              const o = op as { tags?: string[]; deprecated?: boolean };
              return o.deprecated !== true || o.tags?.join() !== 'legacy-v2';
            })
            .map(([m]) => `${m} ${p}`),
        );
      assert.deepEqual(wrong, []);
    });
  });
});
