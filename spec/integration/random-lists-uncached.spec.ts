import assert from 'node:assert/strict';
import request from 'supertest';
import { upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

/** Enough items that two random orders agree only by a chance of 1 in 30!. */
const ITEMS = 30;
/** Reads tried before giving up on seeing a second order. */
const TRIES = 10;

/** Whether reading `read` twice (cache on, by default) ever gives two orders of ids. */
async function ordersDiffer(read: () => Promise<string[]>): Promise<boolean> {
  for (let i = 0; i < TRIES; i++) {
    const [a, b] = [await read(), await read()];
    assert.equal(a.length, ITEMS);
    if (a.join() !== b.join()) return true;
  }
  return false;
}

describe('sort=random is never served from the read cache', () => {
  const suite = new BucketSuite('random-lists', async () => {
    await suite.api.post('/object-types', { title: 'Notes' }).expect(200);
    for (let i = 0; i < ITEMS; i++) {
      await suite.api.post('/objects', { title: `Note ${i}`, type: 'notes' }).expect(200);
      await upload(suite.harness.app, suite.keys, Buffer.from(`file ${i}`), {
        filename: `f${i}.txt`,
        contentType: 'text/plain',
      }).expect(200);
    }
  });

  const ids = (list: { id?: string; _id?: string }[]): string[] => list.map((o) => String(o.id ?? o._id));
  const readKey = (): string => `read_key=${encodeURIComponent(suite.keys.read_key ?? '')}`;

  it('v3 Objects', async () => {
    const read = async () => ids((await suite.api.get(`/objects?sort=random&limit=${ITEMS}`).expect(200)).body.objects);
    assert.ok(await ordersDiffer(read));
  });

  it('v2 Objects', async () => {
    const path = `/v2/buckets/${suite.keys.slug}/objects?sort=random&limit=${ITEMS}&${readKey()}`;
    const read = async () => ids((await request(suite.harness.app).get(path).expect(200)).body.objects);
    assert.ok(await ordersDiffer(read));
  });

  it('v3 and v2 media', async () => {
    const v3 = async () => ids((await suite.api.get(`/media?sort=random&limit=${ITEMS}`).expect(200)).body.media);
    assert.ok(await ordersDiffer(v3));
    const path = `/v2/buckets/${suite.keys.slug}/media?sort=random&limit=${ITEMS}&${readKey()}`;
    const v2 = async () => ids((await request(suite.harness.app).get(path).expect(200)).body.media);
    assert.ok(await ordersDiffer(v2));
  });

  it('a random read leaves no entry behind, so the sorted list still caches', async () => {
    const first = await suite.api.get(`/objects?sort=random&limit=5`).expect(200);
    assert.equal(first.headers['x-cache'], undefined);
    await suite.api.get(`/objects?limit=5`).expect(200);
    assert.equal((await suite.api.get(`/objects?limit=5`).expect(200)).headers['x-cache'], 'HIT');
  });
});
