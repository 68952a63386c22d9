import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startPost } from '../support/raw-upload.js';
import { BucketSuite } from '../support/bucket-suite.js';

/**
 * Starts a raw JSON POST and writes only `first` of its body. Raw, because the point is what
 * the server answers while the body is still arriving.
 */
function startJsonPost(port: number, path: string, headers: Record<string, string | number>, first: string) {
  const started = startPost(port, path, { 'Content-Type': 'application/json', ...headers });
  started.req.write(first);
  return started;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Write routes check the key before reading the body', () => {
  let server: http.Server;
  let port: number;
  const suite = new BucketSuite('keyed', async () => {
    await suite.harness.bucket('open', { kind: 'none' }, { kind: 'none' });
    for (const slug of ['keyed', 'open']) {
      await request(suite.harness.app)
        .post(`/v3/buckets/${slug}/object-types`)
        .set('Authorization', `Bearer ${suite.keys.write_key}`)
        .send({ title: 'Posts' })
        .expect(200);
    }
    server = suite.harness.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const fiveMb = 5 * 1024 * 1024 - 1024;

  it('answers a wrong Authorization header with 401 before reading a 5 MB body', async () => {
    const { req, answer } = startJsonPost(
      port,
      '/v3/buckets/keyed/objects',
      { Authorization: 'Bearer wrong', 'Content-Length': fiveMb },
      '{"title":"x","type":"posts","content":"',
    );
    // Only a few bytes of the declared 5 MB are ever sent: an answer proves the body was not awaited.
    const res = await Promise.race([answer, pause(5000).then(() => null)]);
    req.destroy();
    assert.ok(res, 'no answer while the body was still incomplete');
    assert.equal(res.status, 401);
    assert.equal(res.headers.connection, 'close');
  });

  it('answers 401 without a header before reading a body over 16 KB, saying how to authenticate', async () => {
    const { req, answer } = startJsonPost(
      port,
      '/v3/buckets/keyed/objects',
      { 'Content-Length': fiveMb },
      '{"title":"',
    );
    const res = await Promise.race([answer, pause(5000).then(() => null)]);
    req.destroy();
    assert.ok(res, 'no answer while the body was still incomplete');
    assert.equal(res.status, 401);
    assert.match(
      String(res.body.message),
      /send Authorization: Bearer <write key> \(without it, a body is read only when its Content-Length is at most 16384 bytes\)/,
    );
    assert.equal(res.headers.connection, 'close');
  });

  it('answers 401 to a streamed anonymous body without waiting for it', async () => {
    const { req, answer } = startJsonPost(
      port,
      '/v3/buckets/keyed/objects',
      { 'Transfer-Encoding': 'chunked' },
      '{"a":"',
    );
    const res = await Promise.race([answer, pause(5000).then(() => null)]);
    req.destroy();
    assert.ok(res, 'no answer while the body was still incomplete');
    assert.equal(res.status, 401);
  });

  it('refuses a malformed or deeply nested body with a wrong key as 401, not 400: the key comes first', async () => {
    const wrong = (body: string) =>
      request(suite.harness.app)
        .post('/v3/buckets/keyed/objects')
        .set('Authorization', 'Bearer wrong')
        .set('Content-Type', 'application/json')
        .send(body);
    await wrong(`{"title": ${'x'.repeat(100_000)}`).expect(401);
    await wrong(`${'['.repeat(10_000)}${']'.repeat(10_000)}`).expect(401);
  });

  it('still takes the legacy write_key from a small body', async () => {
    const post = (body: object) => request(suite.harness.app).post('/v3/buckets/keyed/objects').send(body);
    const wrongKey = await post({ title: 'x', type: 'posts', write_key: 'nope' }).expect(401);
    assert.match(wrongKey.body.message, /the key given is not valid/);
    // The key opens the door; v3 bodies then name the field as unknown, as they always did.
    const rightKey = await post({ title: 'x', type: 'posts', write_key: suite.keys.write_key }).expect(400);
    assert.match(rightKey.body.message, /unknown field "write_key"/);
  });

  it('reads large bodies with the right key, and from anyone on a Bucket without a write key', async () => {
    const content = 'x'.repeat(1024 * 1024);
    await request(suite.harness.app)
      .post('/v3/buckets/keyed/objects')
      .set('Authorization', `Bearer ${suite.keys.write_key}`)
      .send({ title: 'Big', type: 'posts', content })
      .expect(200);
    await request(suite.harness.app)
      .post('/v3/buckets/open/objects')
      .send({ title: 'Big', type: 'posts', content })
      .expect(200);
  });
});
