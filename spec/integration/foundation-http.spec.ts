import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import { createApp } from '../../lib/app.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { testEngine } from '../support/test-engine.js';

describe('HTTP behaviour', () => {
  let h: Harness;
  before(async () => {
    h = await freshHarness({ REGION: 'eu-test-1' });
    await h.bucket('open', { kind: 'none' }, { kind: 'none' });
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  it('GET /v3/status answers the region and version without a credential', async () => {
    const res = await request(h.app)
      .get('/v3/status')
      .expect(200)
      .expect('content-type', /application\/json/);
    assert.equal(res.body.region, 'eu-test-1');
    assert.equal(res.body.api_version, '3.0.0');
    assert.match(res.body.version, /^\d+\.\d+\.\d+/);
  });

  it('sends no X-Powered-By header', async () => {
    const res = await request(h.app).get('/v3/status');
    assert.equal(res.headers['x-powered-by'], undefined);
  });

  it('pretty=true indents the JSON, errors included', async () => {
    const ok = await request(h.app).get('/v3/status?pretty=true');
    assert.match(ok.text, /^\{\n {2}"status"/);
    const plain = await request(h.app).get('/v3/status');
    assert.ok(!plain.text.includes('\n'));
    const err = await request(h.app).get('/v3/buckets/none/blocks?pretty=true').expect(404);
    assert.match(err.text, /^\{\n {2}"status": 404/);
  });

  it('answers 400 naming a bad parameter value', async () => {
    const res = await request(h.app).get('/v3/buckets/open/blocks?pretty=maybe').expect(400);
    assert.deepEqual(res.body, {
      status: 400,
      code: 'invalid_parameter',
      message: 'Invalid parameters: pretty must be true or false, got "maybe"',
    });
  });

  it('answers 400 for a parameter given twice', async () => {
    const res = await request(h.app).get('/v3/buckets/open/blocks?pretty=true&pretty=false').expect(400);
    assert.equal(res.body.message, 'Invalid parameters: pretty must be given once, got 2 values');
    assert.equal(res.body.code, 'invalid_parameter');
  });

  it('answers an unknown /v3 path with 200 "Route not found" and a pointer', async () => {
    const res = await request(h.app).get('/v3/buckets/open/nothing-here').expect(200);
    assert.equal(res.body.message, 'Route not found');
    assert.equal(res.body.served_at, 'http://api.test/v3/openapi.json');
    const agents = await request(h.app).get('/v3/agents/signup').expect(200);
    assert.equal(agents.body.message, 'Route not found');
    assert.equal(agents.body.served_at, 'http://api.test/v3/agents/signup');
  });

  it('answers a wrong method on a known /v3 path like an unknown route', async () => {
    const res = await request(h.app).delete('/v3/status').expect(200);
    assert.equal(res.body.message, 'Route not found');
  });

  it('answers unknown paths outside /v3 with 404 and the error body', async () => {
    const res = await request(h.app).get('/nope').expect(404);
    assert.deepEqual(res.body, { status: 404, code: 'route_not_found', message: 'No route for GET /nope' });
  });

  it('answers 503 with Retry-After and no driver text when its client is closed', async () => {
    const client = new MongoClient(testEngine().uri);
    await client.connect();
    const db = client.db('content_api_test');
    await client.close();
    const logged: string[] = [];
    const broken = createApp({ config: h.config, db, log: (m) => logged.push(m) });
    const res = await request(broken).get('/v3/buckets/open/blocks').expect(503);
    assert.equal(res.headers['retry-after'], '5');
    assert.equal(res.body.status, 503);
    assert.equal(res.body.code, 'service_unavailable');
    assert.match(res.body.message, /database is unreachable/);
    assert.ok(!/Mongo|client|topology|stack/i.test(res.text), res.text);
    assert.equal(logged.length, 1);
  });
});
