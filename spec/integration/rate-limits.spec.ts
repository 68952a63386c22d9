import assert from 'node:assert/strict';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../lib/app.js';
import { bucketClient } from '../support/client.js';
import { freshHarness, type Harness } from '../support/harness.js';

const TYPE = { title: 'Posts', metafields: [] };

function limitHeaders(res: request.Response): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(res.headers['ratelimit-limit']),
    remaining: Number(res.headers['ratelimit-remaining']),
    reset: Number(res.headers['ratelimit-reset']),
  };
}

describe('rate limits: requests per minute per Bucket and credential (429)', () => {
  let h: Harness;
  /** A second app over the same database: another process, as far as the budgets can tell. */
  let other: Express;
  before(async () => {
    h = await freshHarness({ RATE_LIMIT_READS_PER_MINUTE: '5', RATE_LIMIT_WRITES_PER_MINUTE: '3' });
    other = createApp({ config: h.config, db: h.db, log: (m) => h.errors.push(m) });
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  it('sends RateLimit-Limit, -Remaining and -Reset with every answer of a Bucket route, errors included', async () => {
    const api = bucketClient(h.app, await h.bucket('headers'));
    const first = await api.get('/object-types').expect(200);
    assert.equal(limitHeaders(first).limit, 5);
    assert.equal(limitHeaders(first).remaining, 4);
    assert.ok(limitHeaders(first).reset >= 1 && limitHeaders(first).reset <= 60, String(limitHeaders(first).reset));
    const missing = await api.get('/object-types/nope').expect(404);
    assert.equal(limitHeaders(missing).remaining, 3);
    const write = await api.post('/object-types', TYPE).expect(200);
    assert.deepEqual([limitHeaders(write).limit, limitHeaders(write).remaining], [3, 2]);
  });

  it('answers 429 rate_limit_exceeded with Retry-After once the reads of the minute are used', async () => {
    const api = bucketClient(h.app, await h.bucket('reads'));
    for (let i = 0; i < 5; i++) await api.get('/object-types').expect(200);
    const refused = await api.get('/object-types').expect(429);
    assert.equal(refused.body.status, 429);
    assert.equal(refused.body.code, 'rate_limit_exceeded');
    assert.match(refused.body.message, /Too many read requests to bucket 'reads'.*at most 5 per minute/);
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
    assert.equal(limitHeaders(refused).remaining, 0);
  });

  it('refuses before the read cache: a read the cache holds is refused like any other', async () => {
    const api = bucketClient(h.app, await h.bucket('cached'));
    await api.post('/object-types', TYPE).expect(200);
    await api.post('/objects', { title: 'One', type: 'posts' }).expect(200);
    await api.get('/objects').expect(200);
    const hit = await api.get('/objects').expect(200);
    assert.equal(hit.headers['x-cache'], 'HIT');
    for (let i = 0; i < 3; i++) await api.get('/objects').expect(200);
    const refused = await api.get('/objects').expect(429);
    assert.equal(refused.headers['x-cache'], undefined);
  });

  it('shares one budget between two apps on the same database', async () => {
    const keys = await h.bucket('shared');
    const a = bucketClient(h.app, keys);
    const b = bucketClient(other, keys);
    await a.get('/object-types').expect(200);
    await b.get('/object-types').expect(200);
    await a.get('/object-types').expect(200);
    await b.get('/object-types').expect(200);
    assert.equal(limitHeaders(await a.get('/object-types').expect(200)).remaining, 0);
    await b.get('/object-types').expect(429);
    await a.get('/object-types').expect(429);
  });

  it('counts reads and writes apart', async () => {
    const api = bucketClient(h.app, await h.bucket('kinds'));
    for (let i = 0; i < 5; i++) await api.get('/object-types').expect(200);
    await api.get('/object-types').expect(429);
    await api.post('/object-types', { ...TYPE, slug: 'a' }).expect(200);
    await api.patch('/object-types/a', { title: 'A' }).expect(200);
    await api.delete('/object-types/a').expect(200);
    const refused = await api.post('/object-types', TYPE).expect(429);
    assert.match(refused.body.message, /Too many write requests.*at most 3 per minute/);
  });

  it('gives each key its own budget, and requests without a valid key the budget of their address', async () => {
    const keys = await h.bucket('creds');
    const readKey = `/v3/buckets/creds/object-types?read_key=${keys.read_key}`;
    for (let i = 0; i < 5; i++) await request(h.app).get(readKey).expect(200);
    await request(h.app).get(readKey).expect(429);
    // The write key reads on its own budget.
    const byWriteKey = request(h.app)
      .get('/v3/buckets/creds/object-types')
      .set('Authorization', `Bearer ${keys.write_key}`);
    assert.equal(limitHeaders(await byWriteKey.expect(200)).remaining, 4);
    // Wrong keys are not budgets of their own: they all spend the address's, and are refused once it is used.
    for (let i = 0; i < 5; i++)
      await request(h.app).get(`/v3/buckets/creds/object-types?read_key=wrong-${i}`).expect(401);
    await request(h.app).get('/v3/buckets/creds/object-types?read_key=wrong-again').expect(429);
    // Budgets are per Bucket too.
    const elsewhere = bucketClient(h.app, await h.bucket('creds-2'));
    await elsewhere.get('/object-types').expect(200);
  });

  it('limits the legacy upload address with the write budget', async () => {
    const keys = await h.bucket('legacy');
    const send = () =>
      request(h.app)
        .post('/v1/legacy/media')
        .set('Authorization', `Bearer ${keys.write_key}`)
        .attach('media', Buffer.from('hello'), { filename: 'a.txt', contentType: 'text/plain' });
    for (let i = 0; i < 3; i++) assert.equal(limitHeaders(await send().expect(200)).remaining, 2 - i);
    assert.equal((await send().expect(429)).body.code, 'rate_limit_exceeded');
  });

  it('counts a legacy body write_key against the key: a key spent through the header is refused in a body', async () => {
    const keys = await h.bucket('body-key');
    const api = bucketClient(h.app, keys);
    for (let i = 0; i < 3; i++) await api.post('/object-types', { ...TYPE, slug: `h${i}` }).expect(200);
    // This address has not written to the Bucket yet: only the key's budget is spent.
    const json = await request(h.app)
      .post('/v1/body-key/add-object-type')
      .send({ title: 'Body', write_key: keys.write_key })
      .expect(429);
    assert.equal(json.body.code, 'rate_limit_exceeded');
    assert.match(json.body.message, /at most 3 per minute/);
    assert.equal(limitHeaders(json).remaining, 0);
    const form = await request(h.app)
      .post('/v1/body-key/media')
      .field('write_key', keys.write_key!)
      .attach('media', Buffer.from('hello'), { filename: 'a.txt', contentType: 'text/plain' })
      .expect(429);
    assert.equal(form.body.code, 'rate_limit_exceeded');
  });

  it('and the other way round: body write_key requests spend the budget header requests then find used', async () => {
    const keys = await h.bucket('body-first');
    for (let i = 0; i < 3; i++) {
      await request(h.app)
        .post('/v1/body-first/add-object-type')
        .send({ title: `Body ${i}`, write_key: keys.write_key })
        .expect(200);
    }
    const refused = await bucketClient(h.app, keys).post('/object-types', TYPE).expect(429);
    assert.equal(refused.body.code, 'rate_limit_exceeded');
  });

  it('spends the same budget on the v2 routes as on their v3 twins', async () => {
    const keys = await h.bucket('twins');
    const api = bucketClient(h.app, keys);
    for (let i = 0; i < 3; i++) await api.get('/object-types').expect(200);
    const v2 = (n: number) => request(h.app).get(`/v2/buckets/twins/object-types?read_key=${keys.read_key}`).expect(n);
    assert.equal(limitHeaders(await v2(200)).remaining, 1);
    await v2(200);
    assert.equal((await v2(429)).body.code, 'rate_limit_exceeded');
  });

  it('leaves /v3/status, /v3/openapi.json and unknown Buckets alone', async () => {
    for (let i = 0; i < 8; i++) {
      const status = await request(h.app).get('/v3/status').expect(200);
      assert.equal(status.headers['ratelimit-limit'], undefined);
    }
    const doc = await request(h.app).get('/v3/openapi.json').expect(200);
    assert.equal(doc.headers['ratelimit-limit'], undefined);
    const unknown = await request(h.app).get('/v3/buckets/no-such-bucket/objects').expect(404);
    assert.equal(unknown.headers['ratelimit-limit'], undefined);
  });
});

describe('rate limits turned off with 0', () => {
  it('sends no RateLimit headers and refuses nothing for the kind set to 0, and still limits the other', async () => {
    const h = await freshHarness({ RATE_LIMIT_READS_PER_MINUTE: '0', RATE_LIMIT_WRITES_PER_MINUTE: '2' });
    const api = bucketClient(h.app, await h.bucket('off'));
    for (let i = 0; i < 20; i++) {
      const res = await api.get('/object-types').expect(200);
      assert.equal(res.headers['ratelimit-limit'], undefined);
    }
    await api.post('/object-types', { ...TYPE, slug: 'a' }).expect(200);
    await api.post('/object-types', { ...TYPE, slug: 'b' }).expect(200);
    await api.post('/object-types', { ...TYPE, slug: 'c' }).expect(429);
    assert.deepEqual(h.errors, []);
  });
});

describe('requests per month of a legacy body write_key', () => {
  it('counts a request keyed only by a body write_key against the month, like the same key in the header', async () => {
    const h = await freshHarness({ PLAN_MAX_REQUESTS_PER_MONTH: '2' });
    const keys = await h.bucket('monthly-body');
    for (let i = 0; i < 2; i++) {
      await request(h.app)
        .post('/v1/monthly-body/add-object-type')
        .send({ title: `Body ${i}`, write_key: keys.write_key })
        .expect(200);
    }
    const refused = await bucketClient(h.app, keys).get('/object-types').expect(402);
    assert.equal(refused.body.code, 'plan_limit_reached');
    assert.deepEqual(h.errors, []);
  });
});
