import assert from 'node:assert/strict';
import { createApp } from '../../lib/app.js';
import { bucketClient } from '../support/client.js';
import { BucketSuite } from '../support/bucket-suite.js';

const typeQuery = `query=${encodeURIComponent('{"type":"notes"}')}`;

describe('GET /objects: read cache and the response cap', () => {
  const suite = new BucketSuite('cache', async () => {
    await suite.api.post('/object-types', { title: 'Notes' }).expect(200);
    await suite.api.post('/object-types', { title: 'Big' }).expect(200);
    await suite.api.post('/objects', { title: 'First', type: 'notes' }).expect(200);
  });

  it('serves a repeated read from the cache and a write makes the next read fresh', async () => {
    const first = await suite.api.get(`/objects?${typeQuery}`).expect(200);
    assert.equal(first.headers['x-cache'], 'MISS');
    const second = await suite.api.get(`/objects?${typeQuery}`).expect(200);
    assert.equal(second.headers['x-cache'], 'HIT');
    assert.deepEqual(second.body, first.body);
    await suite.api.post('/objects', { title: 'Second', type: 'notes' }).expect(200);
    const third = await suite.api.get(`/objects?${typeQuery}`).expect(200);
    assert.equal(third.headers['x-cache'], 'MISS');
    assert.equal(third.body.total, 2);
  });

  it('useCache=false (or use_cache=false) reads through', async () => {
    await suite.api.get(`/objects?${typeQuery}`).expect(200);
    const through = await suite.api.get(`/objects?${typeQuery}&useCache=false`).expect(200);
    assert.equal(through.headers['x-cache'], 'MISS');
    const legacy = await suite.api.get(`/objects?${typeQuery}&use_cache=false`).expect(200);
    assert.equal(legacy.headers['x-cache'], 'MISS');
  });

  it('a write through another app process invalidates this process’s cache', async () => {
    const other = bucketClient(
      createApp({ config: suite.harness.config, db: suite.harness.db, log: (m) => suite.harness.errors.push(m) }),
      suite.keys,
    );
    await suite.api.get(`/objects?${typeQuery}`).expect(200);
    assert.equal((await suite.api.get(`/objects?${typeQuery}`)).headers['x-cache'], 'HIT');
    await other.post('/objects', { title: 'Via other process', type: 'notes' }).expect(200);
    const after = await suite.api.get(`/objects?${typeQuery}`).expect(200);
    assert.equal(after.headers['x-cache'], 'MISS');
    assert.ok(after.body.objects.some((o: { title: string }) => o.title === 'Via other process'));
  });

  it('caches single Object reads too', async () => {
    const id = (await suite.api.get(`/objects?${typeQuery}&limit=1`).expect(200)).body.objects[0].id;
    assert.equal((await suite.api.get(`/objects/${id}`)).headers['x-cache'], 'MISS');
    assert.equal((await suite.api.get(`/objects/${id}`)).headers['x-cache'], 'HIT');
  });

  it('answers 413 with advice when a list would exceed 6 MB, and 200 once props narrow it', async () => {
    const content = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 7; i++)
      await suite.api.post('/objects', { title: `Big ${i}`, type: 'big', content }).expect(200);
    const res = await suite.api.get(`/objects?query=${encodeURIComponent('{"type":"big"}')}`).expect(413);
    assert.equal(res.body.status, 413);
    assert.match(res.body.message, /lower limit, narrow props, or paginate/);
    const narrow = await suite.api
      .get(`/objects?query=${encodeURIComponent('{"type":"big"}')}&props=id,title`)
      .expect(200);
    assert.equal(narrow.body.total, 7);
  });
});
