import assert from 'node:assert/strict';
import { ObjectId, type Document } from 'mongodb';
import { ListTotals } from '../../lib/cache/list-totals.js';
import type { BucketDoc } from '../../lib/db/collections.js';
import { listTotal, totalFromPage } from '../../lib/objects/list/object-list-total.js';

const bucket = (generation: number): BucketDoc => ({
  _id: new ObjectId('6650f0f0f0f0f0f0f0f0f0f0'),
  slug: 'b',
  read_key_hash: null,
  write_key_hash: null,
  generation,
  created_at: new Date(0),
  modified_at: new Date(0),
});

describe('list totals', () => {
  it('a page shorter than its limit proves the total, unless it follows a cursor or is empty past skip', () => {
    const page = { limit: 10, skip: 0, after: false };
    assert.equal(totalFromPage({ ...page, length: 4 }), 4);
    assert.equal(totalFromPage({ ...page, length: 0 }), 0);
    assert.equal(totalFromPage({ ...page, skip: 20, length: 3 }), 23);
    assert.equal(totalFromPage({ ...page, skip: 20, length: 0 }), undefined);
    assert.equal(totalFromPage({ ...page, length: 10 }), undefined, 'a full page may have more after it');
    assert.equal(totalFromPage({ ...page, after: true, length: 3 }), undefined);
  });

  it('keys totals by generation, collection and the filter with its BSON types', () => {
    const at = (b: BucketDoc, generation: string, collection: string, f: Document) =>
      ListTotals.keyAt(ListTotals.listKey(b, collection, f), generation);
    const filter = { bucket_id: new ObjectId(), created_at: { $gt: new Date(0) } };
    const key = at(bucket(1), '1.0', 'objects', filter);
    assert.equal(at(bucket(1), '1.0', 'objects', { ...filter }), key);
    assert.notEqual(at(bucket(1), '2.0', 'objects', filter), key);
    assert.notEqual(at(bucket(1), '1.0', 'published_objects', filter), key);
    const asText = { ...filter, created_at: { $gt: new Date(0).toISOString() } };
    assert.notEqual(at(bucket(1), '1.0', 'objects', asText), key, 'a date and its ISO string count different Objects');
  });

  it('counts once per key, keeps a proved total too, and counts every time without a cache', async () => {
    const totals = new ListTotals(1024 * 1024);
    let counted = 0;
    const count = () => Promise.resolve(++counted && 42);
    const full = { length: 10, limit: 10, skip: 0, after: false };
    assert.equal(await listTotal(totals, 'k', full, count), 42);
    assert.equal(await listTotal(totals, 'k', full, count), 42);
    assert.equal(counted, 1);
    assert.equal(await listTotal(totals, 'short', { ...full, length: 3 }, count), 3);
    assert.equal(await listTotal(totals, 'short', full, count), 3, 'kept');
    assert.equal(counted, 1);
    await listTotal(undefined, 'k', full, count);
    await listTotal(undefined, 'k', full, count);
    assert.equal(counted, 3);
  });

  it('bounds its entries by the bytes of their keys', () => {
    const totals = new ListTotals(4 * (64 + 2 * 10));
    for (let i = 0; i < 5; i++) totals.set(`key-${String(i).padStart(6, '0')}`, i);
    assert.equal(totals.get('key-000000'), undefined, 'the oldest went to make room');
    assert.equal(totals.get('key-000004'), 4);
  });
});
