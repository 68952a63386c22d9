import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import { createApp } from '../../lib/app.js';
import { createLogger } from '../../lib/observability/logger.js';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { bucketClient } from '../support/client.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { upload } from '../support/media.js';

/** A pino destination that keeps every line written to it. */
function capture(): { lines: string[]; stream: { write(line: string): void } } {
  const lines: string[] = [];
  return { lines, stream: { write: (line) => lines.push(line) } };
}

type Line = Record<string, unknown>;

describe('Request logs: one JSON line per request, no secret in any line', () => {
  let h: Harness;
  let keys: IssuedKeys;
  let out: ReturnType<typeof capture>;
  let app: Harness['app'];
  let objectId: string;
  const password = 'correct-horse-battery-staple';
  let previewToken: string;
  let secrets: string[];
  const parsed = (): Line[] => out.lines.map((l) => JSON.parse(l) as Line);
  const lineOf = (id: string): Line => {
    const found = parsed().find((l) => l.req_id === id);
    assert.ok(found, `no line for request ${id}`);
    return found;
  };

  before(async () => {
    h = await freshHarness();
    keys = await h.bucket('logs');
    out = capture();
    // No `log`: the app's failures go to the same logger, so they are checked too.
    app = createApp({ config: h.config, db: h.db, logger: createLogger('info', out.stream) });
    const api = bucketClient(app, keys);
    await api.post('/object-types', { title: 'Posts', slug: 'posts' }).expect(200);
    objectId = (await api.post('/objects', { title: 'Hello', type: 'posts' }).expect(200)).body.object.id;
    previewToken = (await api.post('/preview-tokens', { object_id: objectId }).expect(200)).body.preview_token;
    secrets = [keys.read_key!, keys.write_key!, password, previewToken];
  });

  it('writes the request id (taken from X-Request-Id and echoed), method, route pattern, Bucket, status, duration and bytes', async () => {
    const res = await request(app)
      .get(`/v3/buckets/logs/objects/${objectId}?read_key=${keys.read_key}`)
      .set('X-Request-Id', 'trace-4711')
      .expect(200);
    assert.equal(res.headers['x-request-id'], 'trace-4711');
    const line = lineOf('trace-4711');
    assert.equal(line.msg, 'request completed');
    assert.equal(line.level, 30);
    assert.equal(line.method, 'GET');
    assert.equal(line.route, '/v3/buckets/:slug/objects/:object_id');
    assert.equal(line.bucket, 'logs');
    assert.equal(line.status, 200);
    assert.equal(line.bytes, Buffer.byteLength(res.text));
    assert.equal(typeof line.duration_ms, 'number');
    assert.ok((line.duration_ms as number) >= 0);
    for (const key of ['url', 'req', 'res', 'headers', 'query', 'body']) assert.equal(line[key], undefined, key);
  });

  it('makes up a request id when none (or an unusable one) is sent, and echoes it', async () => {
    const plain = await request(app).get('/v3/status').expect(200);
    const generated = String(plain.headers['x-request-id']);
    assert.match(generated, /^[0-9a-f-]{36}$/);
    assert.equal(lineOf(generated).route, '/v3/status');
    const head = await request(app).head('/v3/status').expect(200);
    assert.equal(lineOf(String(head.headers['x-request-id'])).bytes, 0, 'a HEAD answer sends no body');
    const odd = await request(app).get('/v3/status').set('X-Request-Id', 'has spaces in it').expect(200);
    assert.match(String(odd.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('labels unknown paths as unmatched and public files by route, with their Bucket', async () => {
    const unknown = await request(app).get('/v3/buckets/logs/nothing-here/12345').expect(200);
    assert.equal(lineOf(String(unknown.headers['x-request-id'])).route, 'unmatched');
    const file = await request(app).get('/files/logs/missing.png').expect(404);
    const line = lineOf(String(file.headers['x-request-id']));
    assert.equal(line.route, '/files/:bucket/:name');
    assert.equal(line.bucket, 'logs');
    assert.equal(line.status, 404);
  });

  it('never writes a key, token or password, wherever the request carried it', async () => {
    const auth = `Bearer ${keys.write_key}`;
    const base = '/v3/buckets/logs';
    await request(app).get(`${base}/objects?read_key=${keys.read_key}&props=id`).expect(200);
    await request(app).get(`${base}/objects/${objectId}?preview_token=${encodeURIComponent(previewToken)}`);
    await request(app).get(`${base}/objects`).set('Authorization', auth).expect(200);
    await request(app).get(`${base}/objects`).set('Authorization', keys.write_key!).expect(200);
    // Wrong keys are secrets too (a typo of a real one, or someone else's).
    await request(app).get(`${base}/objects?read_key=${keys.write_key}x`).expect(401);
    await request(app)
      .post(`${base}/objects`)
      .set('Authorization', auth)
      .send({ title: 'Form', type: 'posts', metadata: { password }, write_key: keys.write_key, token: previewToken })
      .expect(400);
    await request(app).post(`${base}/objects`).send({ title: 'Legacy', type: 'posts', write_key: keys.write_key });
    await upload(app, keys, Buffer.from('hello'), { filename: 'a.txt', fields: { write_key: keys.write_key! } });
    await request(app).patch(`${base}/objects/${objectId}?read_key=${keys.read_key}`).set('Authorization', auth).send({
      metadata: { password },
    });
    await request(app).get(`/metrics?token=${previewToken}`).expect(200);
    assert.ok(out.lines.length >= 10);
    const all = out.lines.join('');
    for (const secret of secrets) assert.ok(!all.includes(secret), `a log line holds ${secret}`);
    assert.ok(!all.includes(`${keys.write_key}x`));
  });

  it('logs a failing request at error level with its failure, its URL stripped of keys', async () => {
    // A database that never answers: every Bucket route fails with 503 and the failure is logged.
    const dead = new MongoClient('mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=200');
    const lines = capture();
    const broken = createApp({ config: h.config, db: dead.db('x'), logger: createLogger('info', lines.stream) });
    try {
      await request(broken)
        .get(`/v3/buckets/logs/objects?read_key=${keys.read_key}&preview_token=${previewToken}`)
        .set('Authorization', `Bearer ${keys.write_key}`)
        .set('X-Request-Id', 'dead-1')
        .expect(503);
    } finally {
      await dead.close();
    }
    const all = lines.lines.join('');
    for (const secret of secrets) assert.ok(!all.includes(secret), `a log line holds ${secret}`);
    const parsedLines = lines.lines.map((l) => JSON.parse(l) as Line);
    const failure = parsedLines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('503 on GET'));
    assert.ok(failure, all);
    assert.equal(failure.level, 50);
    assert.match(String(failure.msg), /read_key=\[REDACTED\]&preview_token=\[REDACTED\]: MongoServerSelectionError/);
    assert.match(String(failure.msg), /\[request dead-1\]$/);
    const requestLine = parsedLines.find((l) => l.req_id === 'dead-1' && l.status === 503);
    assert.ok(requestLine);
    assert.equal(requestLine.level, 50);
    assert.equal(requestLine.route, '/v3/buckets/:slug/objects');
  });

  it('censors secrets the logger is handed directly, as fields or inside messages', () => {
    const direct = capture();
    const logger = createLogger('info', direct.stream);
    logger.info({ password, query: { read_key: keys.read_key }, body: { write_key: keys.write_key } }, 'fields');
    logger.warn(`GET /x?preview_token=${previewToken} with Authorization: Bearer ${keys.write_key}`);
    logger.error(new Error(`failed for {"password":"${password}"}`));
    assert.equal(direct.lines.length, 3);
    const all = direct.lines.join('');
    for (const secret of secrets) assert.ok(!all.includes(secret), `a log line holds ${secret}`);
    assert.equal((JSON.parse(direct.lines[0]!) as Line).password, '[REDACTED]');
  });

  it('keeps to LOG_LEVEL: at warn, successful requests write nothing', async () => {
    const quiet = capture();
    const warnApp = createApp({ config: h.config, db: h.db, logger: createLogger('warn', quiet.stream) });
    await request(warnApp).get('/v3/status').expect(200);
    assert.deepEqual(quiet.lines, []);
  });
});
