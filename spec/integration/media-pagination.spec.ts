import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { bucketsCollection } from '../../lib/db/collections.js';
import { mediaCollection, type MediaDoc } from '../../lib/store/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

const TOTAL = 60;
const q = (filter: unknown) => encodeURIComponent(JSON.stringify(filter));

describe('GET /media: keyset pagination with after, and 413 advice per route', () => {
  let bucketId: ObjectId;
  const suite = new BucketSuite('media-pages', async () => {
    const bucket = await bucketsCollection(suite.harness.db).findOne({ slug: 'media-pages' });
    assert.ok(bucket);
    bucketId = bucket._id;
    // Records only (listing never reads the files), many sharing a timestamp: ties are what
    // keyset pagination gets wrong.
    const base = new Date('2026-01-01T00:00:00Z').getTime();
    const docs: MediaDoc[] = Array.from({ length: TOTAL }, (_, i) => ({
      _id: new ObjectId(),
      bucket_id: bucketId,
      name: `item-${i}.txt`,
      original_name: `item-${i}.txt`,
      size: 10,
      type: 'text/plain',
      folder: i % 2 === 0 ? 'even' : 'odd',
      alt_text: '',
      metadata: {},
      width: null,
      height: null,
      file_id: new ObjectId(),
      created_at: new Date(base + Math.floor(i / 7) * 1000),
      modified_at: new Date(base + (i % 5) * 1000),
    }));
    await mediaCollection(suite.harness.db).insertMany(docs);
  });

  /** Every id the list gives page by page, following `after`, and the totals each page reported. */
  async function walk(params: string, limit: number): Promise<{ ids: string[]; totals: Set<number> }> {
    const ids: string[] = [];
    const totals = new Set<number>();
    let after = '';
    for (let page = 0; page < 50; page++) {
      const res = await suite.api.get(`/media?${params}&limit=${limit}&props=id${after ? `&after=${after}` : ''}`);
      if (res.status === 404) break;
      assert.equal(res.status, 200, res.text);
      totals.add(res.body.total);
      const pageIds = res.body.media.map((m: { id: string }) => m.id);
      ids.push(...pageIds);
      after = pageIds[pageIds.length - 1];
    }
    return { ids, totals };
  }

  for (const sort of ['', 'created_at', '-created_at', 'modified_at', '-modified_at']) {
    it(`walks all ${TOTAL} items sorted by ${sort || 'the default'} without duplicates or gaps`, async () => {
      const params = sort ? `sort=${sort}` : 'useCache=false';
      const { ids, totals } = await walk(params, 9);
      assert.deepEqual([...totals], [TOTAL]);
      const oneShot = await suite.api.get(`/media?${params}&props=id`).expect(200);
      assert.deepEqual(
        ids,
        oneShot.body.media.map((m: { id: string }) => m.id),
        'pages concatenate to the unpaginated order',
      );
    });
  }

  it('continues within a query, and total counts every match', async () => {
    const { ids, totals } = await walk(`query=${q({ folder: 'odd' })}&sort=modified_at`, 4);
    assert.equal(ids.length, TOTAL / 2);
    assert.equal(new Set(ids).size, TOTAL / 2);
    assert.deepEqual([...totals], [TOTAL / 2]);
  });

  it('refuses after with sort=random, with skip, or naming no media item of the Bucket', async () => {
    const [first] = await mediaCollection(suite.harness.db).find({ bucket_id: bucketId }).limit(1).toArray();
    assert.ok(first);
    const random = await suite.api.get(`/media?sort=random&after=${first._id.toHexString()}`).expect(400);
    assert.match(random.body.message, /after cannot be used with sort=random/);
    const skip = await suite.api.get(`/media?skip=2&after=${first._id.toHexString()}`).expect(400);
    assert.match(skip.body.message, /skip cannot be combined with after/);
    const unknown = await suite.api.get('/media?after=aaaaaaaaaaaaaaaaaaaaaaaa').expect(400);
    assert.match(
      unknown.body.message,
      /after: no media item with id 'aaaaaaaaaaaaaaaaaaaaaaaa' in bucket 'media-pages'/,
    );
    const malformed = await suite.api.get('/media?after=nope').expect(400);
    assert.match(malformed.body.message, /after must be the id of the previous page's last item/);
  });

  describe('413 advice names only what the route takes', () => {
    const mb = 'x'.repeat(1024 * 1024);

    it('media list: limit, props, skip or after', async () => {
      const big = Array.from({ length: 7 }, (_, i) => ({
        _id: new ObjectId(),
        bucket_id: bucketId,
        name: `big-${i}.txt`,
        original_name: `big-${i}.txt`,
        size: 10,
        type: 'text/plain',
        folder: 'big',
        alt_text: '',
        metadata: { mb },
        width: null,
        height: null,
        file_id: new ObjectId(),
        created_at: new Date(),
        modified_at: new Date(),
      }));
      await mediaCollection(suite.harness.db).insertMany(big);
      const res = await suite.api.get(`/media?query=${q({ folder: 'big' })}`).expect(413);
      assert.equal(res.body.code, 'response_too_large');
      assert.match(res.body.message, /: lower limit, narrow props, or paginate with skip or after$/);
      // The advice works: a page ending where the cap would be, then the rest after it.
      const page = await suite.api.get(`/media?query=${q({ folder: 'big' })}&limit=3`).expect(200);
      const last = page.body.media[2].id;
      await suite.api.get(`/media?query=${q({ folder: 'big' })}&limit=3&after=${last}`).expect(200);
      const one = await suite.api.get(`/media/${big[0]?._id.toHexString()}?props=id,metadata`).expect(200);
      assert.equal(one.body.media.metadata.mb.length, mb.length);
    });

    it('one media item: props only', async () => {
      const model = await mediaCollection(suite.harness.db).findOne({ folder: 'big' });
      assert.ok(model);
      const metadata = { a: mb, b: mb, c: mb, d: mb, e: mb, f: mb, g: mb };
      const huge: MediaDoc = { ...model, _id: new ObjectId(), name: 'huge.txt', metadata };
      await mediaCollection(suite.harness.db).insertOne(huge);
      const res = await suite.api.get(`/media/${huge._id.toHexString()}`).expect(413);
      assert.match(res.body.message, /MB of JSON[^:]*\): narrow props$/);
    });

    it('revisions list: limit, props or skip, never after', async () => {
      await suite.api.post('/object-types', { title: 'Notes' }).expect(200);
      const id = (await suite.api.post('/objects', { title: 'N', type: 'notes', content: mb }).expect(200)).body.object
        .id;
      for (let i = 0; i < 6; i++) await suite.api.patch(`/objects/${id}`, { title: `N${i}` }).expect(200);
      const res = await suite.api.get(`/objects/${id}/revisions`).expect(413);
      assert.match(res.body.message, /: lower limit, narrow props, or paginate with skip$/);
    });

    it('one Object with depth: depth or props, never limit or paging', async () => {
      const id = (await suite.api.post('/objects', { title: 'M', type: 'notes', content: mb }).expect(200)).body.object
        .id;
      await suite.api.post('/object-types', {
        title: 'Hubs',
        metafields: [{ type: 'objects', title: 'Notes', key: 'notes', value: '', object_type: 'notes' }],
      });
      const notes = [id];
      for (let i = 0; i < 6; i++) {
        notes.push(
          (await suite.api.post('/objects', { title: `M${i}`, type: 'notes', content: mb }).expect(200)).body.object.id,
        );
      }
      const hub = (await suite.api.post('/objects', { title: 'H', type: 'hubs', metadata: { notes } }).expect(200)).body
        .object;
      const res = await suite.api.get(`/objects/${hub.id}?depth=1`).expect(413);
      assert.match(res.body.message, /: lower depth or narrow props$/);
      const list = await suite.api.get(`/objects?query=${q({ type: 'hubs' })}&depth=1`).expect(413);
      assert.match(list.body.message, /: lower depth, lower limit, narrow props, or paginate with skip or after$/);
    });
  });
});
