import assert from 'node:assert/strict';
import request from 'supertest';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('authentication (blocks route as the probe)', () => {
  let other: IssuedKeys;
  const suite = new BucketSuite('keyed', async () => {
    other = await suite.harness.bucket('other');
    await suite.harness.bucket('open', { kind: 'none' }, { kind: 'none' });
  });

  const blocks = (slug: string) => request(suite.harness.app).get(`/v3/buckets/${slug}/blocks`);

  it('answers 401 with the error body when the read key is missing', async () => {
    const res = await blocks('keyed').expect(401);
    assert.equal(res.body.status, 401);
    assert.match(res.body.message, /bucket 'keyed' requires the correct read access key/);
  });

  it('answers 401 for a wrong key', async () => {
    const res = await blocks('keyed').query({ read_key: 'not-the-key' }).expect(401);
    assert.match(res.body.message, /requires the correct read access key/);
  });

  it("answers 401 for another Bucket's read key and write key", async () => {
    await blocks('keyed').query({ read_key: other.read_key! }).expect(401);
    await blocks('keyed').set('Authorization', `Bearer ${other.write_key}`).expect(401);
  });

  it('accepts the read key', async () => {
    const res = await blocks('keyed').query({ read_key: suite.keys.read_key! }).expect(200);
    assert.deepEqual(res.body, { blocks: [] });
  });

  it('accepts the write key for reads, as Bearer, bare, or in read_key', async () => {
    await blocks('keyed').set('Authorization', `Bearer ${suite.keys.write_key}`).expect(200);
    await blocks('keyed').set('Authorization', suite.keys.write_key!).expect(200);
    await blocks('keyed').query({ read_key: suite.keys.write_key! }).expect(200);
  });

  it('accepts reads without a key on a Bucket that has no read key', async () => {
    const res = await blocks('open').expect(200);
    assert.deepEqual(res.body, { blocks: [] });
  });

  it('answers 404 naming an unknown Bucket', async () => {
    const res = await blocks('missing').query({ read_key: suite.keys.read_key! }).expect(404);
    assert.deepEqual(res.body, {
      status: 404,
      code: 'bucket_not_found',
      message: "Bucket with slug 'missing' not found",
    });
  });

  it('never stores keys in clear', async () => {
    const stored = await suite.harness.db.collection('buckets').findOne({ slug: 'keyed' });
    assert.ok(stored);
    const text = JSON.stringify(stored);
    assert.ok(!text.includes(suite.keys.read_key!));
    assert.ok(!text.includes(suite.keys.write_key!));
    assert.match(String(stored.read_key_hash), /^[0-9a-f]{64}$/);
  });
});
