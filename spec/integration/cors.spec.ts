import assert from 'node:assert/strict';
import request from 'supertest';
import { freshHarness, type Harness } from '../support/harness.js';
import { imageBytes, upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

const TRUSTED = 'https://editor.example.com';
const STRANGER = 'https://elsewhere.example.net';

/** A browser's preflight before sending `method` with `headers` from `origin`. */
function preflight(h: Harness, path: string, origin: string, method: string, headers = 'authorization,content-type') {
  return request(h.app)
    .options(path)
    .set('Origin', origin)
    .set('Access-Control-Request-Method', method)
    .set('Access-Control-Request-Headers', headers);
}

function listOf(header: string | undefined): string[] {
  return (header ?? '').split(',').map((s) => s.trim().toLowerCase());
}

describe('CORS: reads from any origin, writes from CORS_ORIGINS', () => {
  let photo: string;
  const suite = new BucketSuite(
    'cors',
    async () => {
      await request(suite.harness.app)
        .post('/v3/buckets/cors/object-types')
        .set('Authorization', `Bearer ${suite.keys.write_key}`)
        .send({ title: 'Posts', slug: 'posts' })
        .expect(200);
      photo = (await upload(suite.harness.app, suite.keys, await imageBytes(40, 30), { filename: 'p.png' }).expect(200))
        .body.media.name;
    },
    { CORS_ORIGINS: `${TRUSTED}, http://localhost:5173` },
  );

  const objects = '/v3/buckets/cors/objects';

  it('answers a read preflight from any origin: every origin, GET and HEAD, the headers clients send', async () => {
    for (const origin of [TRUSTED, STRANGER]) {
      const res = await preflight(suite.harness, objects, origin, 'GET').expect(204);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.deepEqual(listOf(res.headers['access-control-allow-methods']), ['get', 'head']);
      const allowed = listOf(res.headers['access-control-allow-headers']);
      for (const name of ['authorization', 'content-type', 'x-request-id']) assert.ok(allowed.includes(name), name);
      assert.equal(res.headers['access-control-max-age'], '7200');
      assert.equal(res.headers['access-control-allow-credentials'], undefined);
    }
  });

  it('answers a write preflight from a trusted origin with that origin and the write methods', async () => {
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const res = await preflight(suite.harness, `${objects}/abc`, TRUSTED, method).expect(204);
      assert.equal(res.headers['access-control-allow-origin'], TRUSTED);
      assert.ok(listOf(res.headers['access-control-allow-methods']).includes(method.toLowerCase()));
      assert.ok(listOf(res.headers['access-control-allow-headers']).includes('authorization'));
      // A page retries its writes safely with a key, and reads whether an answer was a replay.
      assert.ok(listOf(res.headers['access-control-allow-headers']).includes('idempotency-key'));
      assert.ok(listOf(res.headers['access-control-expose-headers']).includes('idempotent-replayed'));
      assert.match(res.headers.vary ?? '', /Origin/);
    }
    const local = await preflight(suite.harness, objects, 'http://localhost:5173', 'POST').expect(204);
    assert.equal(local.headers['access-control-allow-origin'], 'http://localhost:5173');
  });

  it('answers a write preflight from any other origin without an allowed origin, so the browser sends nothing', async () => {
    const res = await preflight(suite.harness, objects, STRANGER, 'POST').expect(204);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    // A look-alike of a trusted origin is another origin.
    const alike = await preflight(suite.harness, objects, `${TRUSTED}.evil.test`, 'PATCH').expect(204);
    assert.equal(alike.headers['access-control-allow-origin'], undefined);
  });

  it('puts Access-Control-Allow-Origin: * on every read, errors included, with or without an Origin', async () => {
    const withOrigin = await request(suite.harness.app)
      .get(`${objects}?read_key=${suite.keys.read_key}`)
      .set('Origin', STRANGER);
    assert.equal(withOrigin.headers['access-control-allow-origin'], '*');
    const exposed = listOf(withOrigin.headers['access-control-expose-headers']);
    for (const name of ['x-request-id', 'x-cache', 'retry-after', 'ratelimit-remaining'])
      assert.ok(exposed.includes(name));
    const plain = await request(suite.harness.app).get(`${objects}?read_key=${suite.keys.read_key}`);
    assert.equal(plain.headers['access-control-allow-origin'], '*');
    const refused = await request(suite.harness.app).get(objects).set('Origin', STRANGER).expect(401);
    assert.equal(refused.headers['access-control-allow-origin'], '*');
    const head = await request(suite.harness.app).head('/v3/status').set('Origin', STRANGER).expect(200);
    assert.equal(head.headers['access-control-allow-origin'], '*');
  });

  it('echoes a trusted origin on writes and their errors, and gives other origins no CORS header', async () => {
    const auth = `Bearer ${suite.keys.write_key}`;
    const body = { title: 'Hello', type: 'posts' };
    const trusted = await request(suite.harness.app)
      .post(objects)
      .set('Origin', TRUSTED)
      .set('Authorization', auth)
      .send(body);
    assert.equal(trusted.status, 200);
    assert.equal(trusted.headers['access-control-allow-origin'], TRUSTED);
    assert.match(trusted.headers.vary ?? '', /Origin/);
    const denied = await request(suite.harness.app).post(objects).set('Origin', TRUSTED).send(body).expect(401);
    assert.equal(denied.headers['access-control-allow-origin'], TRUSTED, 'a page can read why its write failed');
    const stranger = await request(suite.harness.app)
      .post(objects)
      .set('Origin', STRANGER)
      .set('Authorization', auth)
      .send(body);
    assert.equal(stranger.headers['access-control-allow-origin'], undefined);
  });

  it('serves public files and processed images to any origin (canvas use)', async () => {
    for (const path of [`/files/cors/${photo}`, `/imgproc/cors/${photo}?w=20`, `/imgproc/cors/${photo}`]) {
      const res = await request(suite.harness.app).get(path).set('Origin', STRANGER).expect(200);
      assert.equal(res.headers['access-control-allow-origin'], '*', path);
      const pre = await preflight(suite.harness, path, STRANGER, 'GET', 'range').expect(204);
      assert.equal(pre.headers['access-control-allow-origin'], '*');
      assert.ok(listOf(pre.headers['access-control-allow-headers']).includes('range'));
    }
    const missing = await request(suite.harness.app).get('/files/cors/nothing.png').set('Origin', STRANGER).expect(404);
    assert.equal(missing.headers['access-control-allow-origin'], '*');
  });

  it('leaves an OPTIONS request that is no preflight to the app', async () => {
    const res = await request(suite.harness.app).options(objects).set('Origin', STRANGER);
    assert.notEqual(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });
});

describe('CORS with the default CORS_ORIGINS (none) and with "*"', () => {
  it('by default trusts no origin to write, yet every origin to read', async () => {
    const h = await freshHarness({}, 'content_api_cors_default');
    const write = await preflight(h, '/v3/buckets/x/objects', 'http://localhost:3000', 'POST').expect(204);
    assert.equal(write.headers['access-control-allow-origin'], undefined);
    const read = await preflight(h, '/v3/buckets/x/objects', 'http://localhost:3000', 'GET').expect(204);
    assert.equal(read.headers['access-control-allow-origin'], '*');
  });

  it('with "*" lets every origin write, echoing it', async () => {
    const h = await freshHarness({ CORS_ORIGINS: '*' }, 'content_api_cors_any');
    const res = await preflight(h, '/v3/buckets/x/objects', STRANGER, 'DELETE').expect(204);
    assert.equal(res.headers['access-control-allow-origin'], STRANGER);
  });
});
