import assert from 'node:assert/strict';
import type { Db } from 'mongodb';
import { objectTypesCollection, objectsCollection, publishedObjectsCollection } from '../../lib/db/collections.js';
import type { Metafield } from '../../lib/types/metafield.js';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { bucketClient } from '../support/client.js';
import { freshHarness, type Harness } from '../support/harness.js';

/**
 * Two apps in one process, each on its own database, must share nothing they keep between
 * requests. The second database is a copy of the first (same Bucket id, slug, keys, type id,
 * generation and modified_at, as after a restore) except for its own signing secret and one edit
 * made behind the API's back: anything keyed only by those ids would be served across apps.
 */
describe('two apps on two databases in one process', () => {
  let a: Harness;
  let b: Harness;
  let keys: IssuedKeys;
  let objectId: string;

  const colour = (key: string, value: string): Metafield => ({
    type: 'select-dropdown',
    title: 'Colour',
    key: 'colour',
    value: '',
    options: [{ key, value }],
  });

  /** Every collection but the settings, where each database keeps its own secret. */
  async function copyDatabase(from: Db, to: Db): Promise<void> {
    for (const { name } of await from.listCollections({}, { nameOnly: true }).toArray()) {
      if (name === 'settings' || name.startsWith('system.')) continue;
      const docs = await from.collection(name).find().toArray();
      if (docs.length > 0) await to.collection(name).insertMany(docs);
    }
  }

  before(async () => {
    a = await freshHarness();
    keys = await a.bucket('shared');
    const api = bucketClient(a.app, keys);
    await api.post('/object-types', { title: 'Posts', metafields: [colour('k', 'Red')] }).expect(200);
    // This write compiles app A's metadata validator for the type.
    objectId = (await api.post('/objects', { title: 'One', type: 'posts', metadata: { colour: 'k' } }).expect(200)).body
      .object.id;
    // App A issues its first token before app B exists, so its secret is the one read first.
    await api.post('/preview-tokens', {}).expect(200);
    b = await freshHarness({}, 'content_api_test_second');
    await copyDatabase(a.db, b.db);
    // Same type id, generation and modified_at in both; only the option key and label differ.
    await objectTypesCollection(b.db).updateOne({ slug: 'posts' }, { $set: { metafields: [colour('b', 'Blue')] } });
    for (const coll of [objectsCollection(b.db), publishedObjectsCollection(b.db)]) {
      await coll.updateOne({ title: 'One' }, { $set: { 'metadata.colour': 'b' } });
    }
  });
  after(async () => {
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
    await b.db.dropDatabase();
  });

  it('each app verifies its own preview tokens and refuses the other one', async () => {
    const apiA = bucketClient(a.app, keys);
    const apiB = bucketClient(b.app, keys);
    const tokenA = (await apiA.post('/preview-tokens', {}).expect(200)).body.preview_token as string;
    const tokenB = (await apiB.post('/preview-tokens', {}).expect(200)).body.preview_token as string;
    assert.notEqual(tokenA, tokenB);
    const withToken = (t: string) => `/objects/${objectId}?preview_token=${encodeURIComponent(t)}`;
    await apiA.get(withToken(tokenA)).expect(200);
    await apiB.get(withToken(tokenB)).expect(200);
    const refused = await apiB.get(withToken(tokenA)).expect(401);
    assert.equal(refused.body.status, 401);
    assert.match(refused.body.message, /preview_token is not valid for bucket 'shared'/);
    await apiA.get(withToken(tokenB)).expect(401);
  });

  it('renders with its own Object types, whichever app read them first', async () => {
    const read = (h: Harness) => bucketClient(h.app, keys).get(`/objects/${objectId}?useCache=false`).expect(200);
    assert.deepEqual((await read(a)).body.object.metadata.colour, { key: 'k', value: 'Red' });
    assert.deepEqual((await read(b)).body.object.metadata.colour, { key: 'b', value: 'Blue' });
    assert.deepEqual((await read(a)).body.object.metadata.colour, { key: 'k', value: 'Red' });
  });

  it('validates metadata with its own Object types', async () => {
    const write = (h: Harness, key: string) =>
      bucketClient(h.app, keys).post('/objects', { title: 'Two', type: 'posts', metadata: { colour: key } });
    await write(b, 'b').expect(200);
    await write(b, 'k').expect(400);
    await write(a, 'k').expect(200);
    await write(a, 'b').expect(400);
  });
});
