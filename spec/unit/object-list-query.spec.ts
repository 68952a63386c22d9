import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { objectListQuery, randomPageStages } from '../../lib/objects/list/object-list-query.js';

describe('Object list query builder (pure)', () => {
  const bucketId = new ObjectId();
  const build = (translated: object, keyset: object | null) =>
    objectListQuery({
      bucketId,
      viewMatch: { status: 'published' },
      translated,
      sort: {
        random: false,
        fields: [
          ['order', -1],
          ['_id', -1],
        ],
      },
      keyset,
      skip: 0,
      limit: 10,
    });

  it('puts the query first and the Bucket and the view after it, as one flat filter', () => {
    const q = build({ type: 'posts', 'metadata.genre': 'g3' }, null);
    assert.deepEqual(q.filter, { type: 'posts', 'metadata.genre': 'g3', bucket_id: bucketId, status: 'published' });
    assert.deepEqual(Object.keys(q.filter), ['type', 'metadata.genre', 'bucket_id', 'status']);
    assert.equal(q.pageFilter, q.filter);
  });

  it('keeps the Bucket and view as written when the query repeats one of their keys', () => {
    const q = build({ status: 'draft' }, null);
    assert.deepEqual(q.filter, { $and: [{ status: 'draft' }, { bucket_id: bucketId, status: 'published' }] });
  });

  it('adds the cursor beside the filter, or with $and when the query has its own $or', () => {
    const keyset = { $or: [{ order: { $lt: 3 } }, { order: { $eq: 3 }, _id: { $lt: bucketId } }] };
    const plain = build({ type: 'posts' }, keyset);
    assert.deepEqual(plain.pageFilter, { ...plain.filter, ...keyset });
    assert.deepEqual(Object.keys(plain.filter), ['type', 'bucket_id', 'status'], 'the total counts without the cursor');
    const withOr = build({ $or: [{ type: 'a' }, { type: 'b' }] }, keyset);
    assert.deepEqual(withOr.pageFilter, { $and: [withOr.filter, keyset] });
  });

  it('samples a random page from the same filter', () => {
    const q = objectListQuery({
      bucketId,
      viewMatch: { status: 'draft' },
      translated: {},
      sort: { random: true },
      keyset: null,
      skip: 5,
      limit: 3,
    });
    assert.deepEqual(randomPageStages(q), [
      { $match: { bucket_id: bucketId, status: 'draft' } },
      { $sample: { size: 3 } },
    ]);
  });
});
