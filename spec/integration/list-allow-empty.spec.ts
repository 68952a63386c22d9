import assert from 'node:assert/strict';
import request from 'supertest';
import { BucketSuite } from '../support/bucket-suite.js';

/**
 * `allow_empty`: a list that matches nothing answers 200 with no items instead of the spec's 404,
 * so a client (Studio) never has to make a request it knows may be refused.
 */
describe('lists with allow_empty', () => {
  const suite = new BucketSuite('empty-lists', async () => {
    await request(suite.harness.app)
      .post('/v3/buckets/empty-lists/object-types')
      .set('Authorization', `Bearer ${String(suite.keys.write_key)}`)
      .send({ title: 'Posts' })
      .expect(200);
  });
  // Objects of a type that has none; media of a Bucket that has none.
  const get = (path: string) =>
    request(suite.harness.app)
      .get(path)
      .query({ read_key: suite.keys.read_key, ...(path.endsWith('objects') ? { query: '{"type":"posts"}' } : {}) });

  for (const [version, what] of [
    ['v3', 'objects'],
    ['v3', 'media'],
    ['v2', 'objects'],
    ['v2', 'media'],
  ] as const) {
    it(`${version} ${what}: 404 no_match without it, 200 with nothing and total 0 with it`, async () => {
      const path = `/${version}/buckets/empty-lists/${what}`;
      const refused = await get(path).expect(404);
      assert.equal(refused.body.code, 'no_match');
      const res = await get(path).query({ allow_empty: 'true' }).expect(200);
      assert.deepEqual(res.body[what], []);
      assert.equal(res.body.total, 0);
    });
  }

  it('names a value that is not a boolean', async () => {
    const res = await get('/v3/buckets/empty-lists/objects').query({ allow_empty: 'yes' }).expect(400);
    assert.match(res.body.message, /allow_empty must be true or false/);
  });
});
