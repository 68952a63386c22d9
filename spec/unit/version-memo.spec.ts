import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import type { ObjectDoc } from '../../lib/db/collections.js';
import { UNTRACKED, VersionMemo } from '../../lib/objects/write/version-memo.js';

const bucket = { _id: new ObjectId(), generation: 3 };

function version(title = 'Post', metadata: Record<string, unknown> = {}): ObjectDoc {
  const at = new Date('2026-01-02T03:04:05.678Z');
  return {
    _id: new ObjectId(),
    bucket_id: bucket._id,
    type: 'posts',
    slug: 'post',
    title,
    content: '',
    locale: null,
    thumbnail: null,
    status: 'published',
    metadata,
    refs: [],
    order: 0,
    created_at: at,
    modified_at: at,
    published_at: at,
    created_by: null,
    modified_by: null,
  };
}

describe('VersionMemo', () => {
  it('answers a copy of the version kept, at the generation it was kept under only', () => {
    const memo = new VersionMemo(1 << 20);
    const doc = version('Kept', { when: new Date(0), related: new ObjectId() });
    memo.remember(bucket, doc);
    const got = memo.latest(bucket, doc._id);
    assert.ok(got);
    assert.deepEqual(got, doc);
    assert.ok(got.modified_at instanceof Date && got._id instanceof ObjectId, 'BSON types come back as they went');
    assert.equal(memo.holds(bucket, doc._id.toHexString()), true);
    assert.equal(memo.latest({ ...bucket, generation: 4 }, doc._id), undefined);
    assert.equal(memo.holds(bucket, doc._id.toHexString()), false, 'an entry of another generation is dropped');
    assert.equal(memo.latest({ _id: new ObjectId(), generation: 3 }, doc._id), undefined, 'another Bucket');
  });

  it('is changed by nothing done to the document given or answered', () => {
    const memo = new VersionMemo(1 << 20);
    const doc = version('Original', { list: ['a'] });
    memo.remember(bucket, doc);
    doc.title = 'Changed after';
    (doc.metadata.list as string[]).push('b');
    doc.modified_at.setTime(0);
    const got = memo.latest(bucket, doc._id)!;
    assert.equal(got.title, 'Original');
    assert.deepEqual(got.metadata.list, ['a']);
    got.metadata.list = [];
    got.modified_at.setTime(1);
    const again = memo.latest(bucket, doc._id)!;
    assert.deepEqual(again.metadata.list, ['a']);
    assert.equal(again.modified_at.toISOString(), '2026-01-02T03:04:05.678Z');
  });

  it('keeps none of the fields other writers change without moving modified_at', () => {
    const memo = new VersionMemo(1 << 20);
    const doc: ObjectDoc = {
      ...version(),
      schedule_claim: { by: 'x', until: new Date() },
      singleton_key: 'k',
      idempotency_key: 'b:k',
      idempotency_request: 'h',
      pending: { deletes: true, version: new Date(), notify: false, since: new Date() },
    };
    memo.remember(bucket, doc);
    const got = memo.latest(bucket, doc._id)!;
    for (const field of UNTRACKED) assert.equal(field in got, false, field);
    assert.equal(got.title, 'Post');
  });

  it('holds at most its number of entries and its bytes, the least recently used going first', () => {
    const byCount = new VersionMemo(1 << 20, 3);
    const docs = Array.from({ length: 5 }, (_, i) => version(`n${String(i)}`));
    for (const doc of docs) byCount.remember(bucket, doc);
    assert.equal(byCount.size.entries, 3);
    assert.equal(byCount.latest(bucket, docs[0]!._id), undefined);
    assert.ok(byCount.latest(bucket, docs[4]!._id));

    const big = 'x'.repeat(1000);
    const byBytes = new VersionMemo(4000);
    const heavy = Array.from({ length: 6 }, (_, i) => version(`h${String(i)}`, { big }));
    for (const doc of heavy) byBytes.remember(bucket, doc);
    assert.ok(byBytes.size.bytes <= 4000, String(byBytes.size.bytes));
    assert.ok(byBytes.size.entries < 6 && byBytes.size.entries > 0, String(byBytes.size.entries));
    assert.ok(byBytes.latest(bucket, heavy[5]!._id), 'the latest kept');
    assert.equal(byBytes.latest(bucket, heavy[0]!._id), undefined, 'the oldest gone');

    const tooBig = new VersionMemo(500);
    const huge = version('huge', { big });
    tooBig.remember(bucket, huge);
    assert.equal(tooBig.latest(bucket, huge._id), undefined, 'a version larger than the budget is not kept');
  });

  it('forgets an Object', () => {
    const memo = new VersionMemo(1 << 20);
    const doc = version();
    memo.remember(bucket, doc);
    memo.forget(bucket._id, doc._id);
    assert.equal(memo.latest(bucket, doc._id), undefined);
    assert.equal(memo.size.entries, 0);
  });
});
