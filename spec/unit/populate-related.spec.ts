import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { chunks, idsToLookUp, relatedFilter } from '../../lib/objects/populate/related.js';
import { objectDocFixture } from '../support/object-doc.js';

describe('related Object lookups (pure)', () => {
  const [a, b, c] = [new ObjectId(), new ObjectId(), new ObjectId()];

  it('looks up every referenced id once, in first-seen order, from refs anywhere in metadata', () => {
    const docs = [
      objectDocFixture('P', { author: a, box: { inner: b } }),
      objectDocFixture('Q', { items: [{ target: b }, { target: c }], author: a }),
    ];
    assert.deepEqual(
      idsToLookUp(docs, new Set()).map((id) => id.toHexString()),
      [a, b, c].map((id) => id.toHexString()),
    );
  });

  it('skips ids an earlier level looked up, found or not', () => {
    const docs = [objectDocFixture('P', { x: [a, b, c] })];
    assert.deepEqual(idsToLookUp(docs, new Set([a.toHexString(), c.toHexString()])), [b]);
  });

  it('reads documents projected without refs as referencing nothing', () => {
    assert.deepEqual(idsToLookUp([{}], new Set()), []);
  });

  it('asks by _id, which an index serves, and by Bucket, which targets one shard', () => {
    const bucketId = new ObjectId();
    assert.deepEqual(relatedFilter(bucketId, [a, b]), { _id: { $in: [a, b] }, bucket_id: bucketId });
  });

  it('splits a long id list into bounded reads', () => {
    assert.deepEqual(chunks([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
    assert.deepEqual(chunks([], 3), []);
  });
});
