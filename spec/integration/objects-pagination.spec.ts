import assert from 'node:assert/strict';
import { BucketSuite } from '../support/bucket-suite.js';

const TOTAL = 250;

describe('GET /objects: keyset pagination with after', () => {
  const suite = new BucketSuite('pages', async () => {
    await suite.api
      .post('/object-types', {
        title: 'Items',
        metafields: [{ type: 'number', title: 'Rank', key: 'rank', value: '', sortable: true }],
      })
      .expect(200);
    // Created through the database so that many share created_at, order and rank: ties are
    // what pagination gets wrong. Some lack a rank to exercise null ordering.
    const bucket = await suite.harness.db.collection('buckets').findOne({ slug: 'pages' });
    const base = new Date('2026-01-01T00:00:00Z').getTime();
    const docs = Array.from({ length: TOTAL }, (_, i) => {
      const at = new Date(base + Math.floor(i / 7) * 1000);
      return {
        bucket_id: bucket!._id,
        type: 'items',
        slug: `item-${i}`,
        title: `Item ${i}`,
        content: '',
        locale: null,
        thumbnail: null,
        status: 'published',
        metadata: i % 11 === 0 ? {} : { rank: i % 5 },
        refs: [],
        order: i % 13,
        created_at: at,
        modified_at: new Date(base + (i % 17) * 1000),
        published_at: at,
        created_by: null,
        modified_by: null,
      };
    });
    // Published Objects live in both views: latest versions and live versions.
    await suite.harness.db.collection('objects').insertMany(docs.map((d) => ({ ...d })));
    await suite.harness.db.collection('published_objects').insertMany(docs);
  });

  const sorts = [
    'created_at',
    '-created_at',
    'modified_at',
    '-modified_at',
    'order',
    '-order',
    'metadata.rank',
    '-metadata.rank',
  ];
  for (const sort of sorts) {
    it(`walks all ${TOTAL} Objects sorted by ${sort} without duplicates or gaps`, async () => {
      const seen: string[] = [];
      let after = '';
      for (let page = 0; page < 20; page++) {
        const res = await suite.api.get(
          `/objects?query=${encodeURIComponent('{"type":"items"}')}&sort=${sort}&limit=37&props=id${after ? `&after=${after}` : ''}`,
        );
        if (res.status === 404) break;
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.total, TOTAL);
        const ids = res.body.objects.map((o: { id: string }) => o.id);
        seen.push(...ids);
        after = ids[ids.length - 1];
      }
      assert.equal(seen.length, TOTAL);
      assert.equal(new Set(seen).size, TOTAL);
      const oneShot = await suite.api
        .get(`/objects?query=${encodeURIComponent('{"type":"items"}')}&sort=${sort}&props=id`)
        .expect(200);
      assert.deepEqual(
        seen,
        oneShot.body.objects.map((o: { id: string }) => o.id),
        'pages concatenate to the unpaginated order',
      );
    });
  }

  it('answers 400 for an after id that names no Object of the Bucket', async () => {
    const res = await suite.api.get('/objects?after=aaaaaaaaaaaaaaaaaaaaaaaa').expect(400);
    assert.match(res.body.message, /after: no Object with id 'aaaaaaaaaaaaaaaaaaaaaaaa'/);
  });
});
