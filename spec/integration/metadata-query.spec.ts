import assert from 'node:assert/strict';
import { BucketSuite } from '../support/bucket-suite.js';
import { mf } from '../support/metadata-helpers.js';

const colour = mf('select-dropdown', 'colour', {
  value: '',
  options: [
    { key: 'r', value: 'Red' },
    { key: 'g', value: 'Green' },
  ],
});

describe('Querying Metafields by kind', () => {
  const suite = new BucketSuite('query', async (api) => {
    const price = mf('number', 'price', { value: '' });
    await api.post('/object-types', { title: 'Paints', metafields: [colour, price] }).expect(200);
    for (const [title, metadata] of [
      ['A', { colour: 'r', price: 5 }],
      ['B', { colour: 'Green', price: 7 }],
      ['C', {}],
    ] as const) {
      await api.post('/objects', { title, type: 'paints', metadata }).expect(200);
    }
  });
  const titles = async (query: object): Promise<string[]> => {
    const q = encodeURIComponent(JSON.stringify({ type: 'paints', ...query }));
    const res = await suite.api.get(`/objects?props=title&sort=created_at&query=${q}`).expect(200);
    return res.body.objects.map((o: { title: string }) => o.title);
  };
  const refused = async (query: object): Promise<string> => {
    const q = encodeURIComponent(JSON.stringify(query));
    return (await suite.api.get(`/objects?query=${q}`).expect(400)).body.message;
  };

  describe('a select-dropdown, answered as {key, value}', () => {
    it('is queried by key as metadata.<key> or metadata.<key>.key', async () => {
      assert.deepEqual(await titles({ 'metadata.colour': 'r' }), ['A']);
      assert.deepEqual(await titles({ 'metadata.colour.key': 'g' }), ['B']);
      assert.deepEqual(await titles({ 'metadata.colour.key': { $in: ['r', 'g'] } }), ['A', 'B']);
    });

    it('is queried by value as metadata.<key>.value, translated to the stored keys', async () => {
      assert.deepEqual(await titles({ 'metadata.colour.value': 'Green' }), ['B']);
      assert.deepEqual(await titles({ 'metadata.colour.value': { $in: ['Red', 'Green'] } }), ['A', 'B']);
      assert.deepEqual(await titles({ 'metadata.colour.value': { $ne: 'Red' } }), ['B', 'C']);
      assert.deepEqual(await titles({ 'metadata.colour.value': { $not: { $eq: 'Green' } } }), ['A', 'C']);
      assert.deepEqual(await titles({ 'metadata.colour.value': null }), ['C']);
      assert.deepEqual(await titles({ 'metadata.colour.key': 'r', 'metadata.colour.value': 'Red' }), ['A']);
    });

    it('refuses operators that do not apply to .value, and other paths below it', async () => {
      assert.match(
        await refused({ 'metadata.colour.value': { $regex: '^R' } }),
        /metadata\.colour\.value\.\$regex: \$regex does not apply here; use \$eq, \$ne, \$in, \$nin, \$not/,
      );
      assert.match(await refused({ 'metadata.colour.label': 'Red' }), /metadata\.colour is a select-dropdown/);
    });
  });

  it('a number is queried with numbers, and $regex does not apply to it', async () => {
    assert.deepEqual(await titles({ 'metadata.price': { $gt: 6 } }), ['B']);
    assert.match(await refused({ 'metadata.price': '5' }), /metadata\.price: "5" is not a number/);
    assert.match(await refused({ 'metadata.price': { $regex: '5' } }), /\$regex applies only to text keys/);
  });
});
