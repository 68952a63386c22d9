import assert from 'node:assert/strict';
import request from 'supertest';
import { AppState } from '../../lib/app-state.js';
import { v1Routes } from '../../lib/api/legacy/v1/index.js';
import type { V1Route } from '../../lib/api/legacy/v1/route.js';
import { upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';
import { PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';

/** Every v1 route with its path parameters filled in. */
function addressed(routes: V1Route[], bucketSlug: string): { method: V1Route['method']; path: string }[] {
  return routes.map((r) => ({
    method: r.method,
    path: `/v1${r.path.replace(':slug', bucketSlug).replace(/:[a-z_]+/g, 'x')}`,
  }));
}

function assertErrorBody(res: request.Response, status: number, code: string, label: string): void {
  assert.equal(res.status, status, `${label}: ${res.text.slice(0, 300)}`);
  assert.deepEqual(Object.keys(res.body as object).sort(), ['code', 'message', 'status'], label);
  assert.equal(res.body.status, status);
  assert.equal(res.body.code, code, `${label}: ${res.text.slice(0, 300)}`);
  assert.ok(typeof res.body.message === 'string' && res.body.message.length > 0);
}

describe('legacy v1 errors and media sorts', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  let routes: V1Route[];
  const suite = new BucketSuite('v1errors', () => {
    // The account routes (/v1/authenticate, /v1/buckets) address no Bucket: legacy-accounts.spec.ts covers them.
    routes = v1Routes({
      config: suite.harness.config,
      db: suite.harness.db,
      state: new AppState(suite.harness.config, suite.harness.db, () => {}),
      log: () => {},
    }).filter((r) => r.path.startsWith('/:slug'));
  });

  it('every v1 route answers an unknown Bucket with 404 bucket_not_found and the error body', async () => {
    assert.ok(routes.length >= 20);
    for (const { method, path } of addressed(routes, 'no-such-bucket')) {
      assertErrorBody(await request(suite.harness.app)[method](path), 404, 'bucket_not_found', `${method} ${path}`);
    }
  });

  it('every v1 route answers a missing key with 401 unauthorized and the error body', async () => {
    // An Extension's archive files are public: the dashboard's frame cannot send a credential.
    const keyed = routes.filter((r) => !r.path.includes('/files/'));
    for (const { method, path } of addressed(keyed, suite.keys.slug)) {
      const req = request(suite.harness.app)[method](path);
      // The upload judges the form before the key, as v3's does: send a well-formed one.
      const sent = method === 'post' && path.endsWith('/media') ? req.attach('media', Buffer.from('x'), 'x.txt') : req;
      assertErrorBody(await sent, 401, 'unauthorized', `${method} ${path}`);
    }
  });

  it('unknown /v1 paths and methods answer 404 route_not_found with the error body, never the v3 quirk', async () => {
    for (const [method, path] of [
      ['get', '/v1'],
      ['get', `/v1/${suite.keys.slug}/nothing/here`],
      ['post', `/v1/${suite.keys.slug}/objects`],
      ['put', `/v1/${suite.keys.slug}/object-types`],
      ['get', `/v1/${suite.keys.slug}/add-object`],
    ] as const) {
      assertErrorBody(await request(suite.harness.app)[method](path), 404, 'route_not_found', `${method} ${path}`);
    }
  });

  it('a v1 read whose v1 shape passes the response cap is a 413 with advice, though the stored Objects are small', async () => {
    const auth = { Authorization: `Bearer ${suite.keys.write_key ?? ''}` };
    const options = Array.from({ length: 2500 }, (_, i) => ({ key: `k${String(i).padStart(10, '0')}`, value: 'v' }));
    const metafields = [{ type: 'select-dropdown', title: 'Pick', key: 'pick', value: '', options }];
    await request(suite.harness.app)
      .post(`/v1/${suite.keys.slug}/add-object-type`)
      .set(auth)
      .send({ title: 'Big', metafields })
      .expect(200);
    for (let i = 0; i < 80; i++)
      await request(suite.harness.app)
        .post(`/v1/${suite.keys.slug}/add-object`)
        .set(auth)
        .send({ type_slug: 'big', title: `B${i}` })
        .expect(200);
    const list = `/v1/${suite.keys.slug}/objects?read_key=${suite.keys.read_key ?? ''}`;
    const res = await request(suite.harness.app).get(list);
    assertErrorBody(res, 413, 'response_too_large', 'v1 list');
    assert.match(res.body.message, /lower limit or paginate with skip/);
    await request(suite.harness.app).get(`${list}&hide_metafields=true`).expect(200);
    assertErrorBody(
      await request(suite.harness.app).get(`/v1/${suite.keys.slug}?read_key=${suite.keys.read_key ?? ''}`),
      413,
      'response_too_large',
      'bucket',
    );
  });

  it('media lists sort by created, -created, size, -size and random; another sort is a 400', async () => {
    for (const body of ['ccc', 'a', 'bb'])
      await upload(suite.harness.app, suite.keys, Buffer.from(body), { filename: `${body}.txt` });
    const names = async (sort: string) => {
      const res = await request(suite.harness.app).get(
        `/v1/${suite.keys.slug}/media?read_key=${suite.keys.read_key ?? ''}&sort=${sort}`,
      );
      assert.equal(res.status, 200, res.text);
      return (res.body as { media: { original_name: string }[] }).media.map((m) => m.original_name);
    };
    assert.deepEqual(await names('created'), ['ccc.txt', 'a.txt', 'bb.txt']);
    assert.deepEqual(await names('-created'), ['bb.txt', 'a.txt', 'ccc.txt']);
    assert.deepEqual(await names('size'), ['a.txt', 'bb.txt', 'ccc.txt']);
    assert.deepEqual(await names('-size'), ['ccc.txt', 'bb.txt', 'a.txt']);
    assert.deepEqual((await names('random')).sort(), ['a.txt', 'bb.txt', 'ccc.txt']);
    const bad = await request(suite.harness.app).get(
      `/v1/${suite.keys.slug}/media?read_key=${suite.keys.read_key ?? ''}&sort=name`,
    );
    assertErrorBody(bad, 400, 'invalid_parameter', 'sort=name');
    assert.match(bad.body.message, /size, -size, created, -created/);
  });
});
