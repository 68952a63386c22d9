import assert from 'node:assert/strict';
import request from 'supertest';
import type { Metafield } from '../../lib/types/metafield.js';
import { ObjectId } from 'mongodb';
import { objectsCollection, objectTypesCollection, revisionsCollection } from '../../lib/db/collections.js';
import { repairPendingRenames } from '../../lib/object-types/object-type-rename.js';
import { BucketSuite } from '../support/bucket-suite.js';

const fields: Metafield[] = [
  { type: 'text', title: 'Summary', key: 'summary', value: '' },
  { type: 'number', title: 'Rank', key: 'rank', value: '', sortable: true },
  { type: 'text', title: 'Subtitle', key: 'subtitle', value: '' },
];

type Obj = { id: string; title: string; metadata: Record<string, unknown> };

const q = (query: object, extra = '') => `/objects?query=${encodeURIComponent(JSON.stringify(query))}${extra}`;

describe('Metafield keys: stable across retitles, renamed on request', () => {
  const ids: Record<string, string> = {};
  const suite = new BucketSuite('mfkeys', async (api) => {
    await api.post('/object-types', { title: 'Posts', metafields: fields }).expect(200);
    const make = async (title: string, metadata: Record<string, unknown>, status = 'published') =>
      String((await api.post('/objects', { title, type: 'posts', status, metadata }).expect(200)).body.object.id);
    ids.live = await make('Live', { summary: 'live summary', rank: 2 });
    // Published, then a draft over it with another summary: the live copy and the latest differ.
    ids.drafted = await make('Drafted', { summary: 'published summary', rank: 1 });
    await api.patch(`/objects/${ids.drafted}`, { status: 'draft', metadata: { summary: 'draft summary' } }).expect(200);
    ids.draft = await make('Draft only', { summary: 'never published' }, 'draft');
    ids.empty = await make('Empty', { summary: '' });
  });

  const api = () => suite.api;
  const read = async (id: string, status: string) =>
    (await api().get(`/objects/${id}?status=${status}`).expect(200)).body.object as Obj;

  it('a PATCH that retitles a Metafield keeps its key and every value', async () => {
    const retitled = fields.map((m) => (m.key === 'subtitle' ? { ...m, title: 'Strapline' } : m));
    const res = await api().patch('/object-types/posts', { metafields: retitled }).expect(200);
    const subtitle = (res.body.object_type.metafields as Metafield[]).find((m) => m.title === 'Strapline');
    assert.equal(subtitle?.key, 'subtitle');
    assert.equal((await read(ids.live ?? '', 'any')).metadata.summary, 'live summary');
  });

  it('counts the Objects with a value for a Metafield, each once, over drafts and live copies', async () => {
    const usage = await api().get('/object-types/posts/metafields/summary/usage').expect(200);
    // live, drafted (both views, counted once), draft only; not the empty one.
    assert.deepEqual(usage.body, { objects: 3 });
    assert.deepEqual((await api().get('/object-types/posts/metafields/subtitle/usage').expect(200)).body, {
      objects: 0,
    });
    const missing = await api().get('/object-types/posts/metafields/nope/usage').expect(404);
    assert.match(missing.body.message, /Metafield with key 'nope' not found/);
    await api().get('/object-types/nope/metafields/summary/usage').expect(404);
  });

  it('refuses an unknown key, a taken key, an invalid key and the same key, changing nothing', async () => {
    const rename = (from: string, body: unknown) => api().post(`/object-types/posts/metafields/${from}/rename`, body);
    const unknown = await rename('nope', { key: 'other' }).expect(404);
    assert.match(unknown.body.message, /Metafield with key 'nope'/);
    const taken = await rename('summary', { key: 'rank' }).expect(409);
    assert.equal(taken.body.code, 'conflict');
    assert.match(taken.body.message, /already has a Metafield with key 'rank'/);
    const invalid = await rename('summary', { key: 'has space' }).expect(400);
    assert.equal(invalid.body.code, 'invalid_body');
    assert.match(invalid.body.message, /key/);
    await rename('summary', {}).expect(400);
    await rename('summary', { key: 'teaser', extra: 1 }).expect(400);
    const same = await rename('summary', { key: 'summary' }).expect(400);
    assert.match(same.body.message, /already has the key 'summary'/);
    await api().post('/object-types/nope/metafields/summary/rename', { key: 'x' }).expect(404);
    const type = (await api().get('/object-types/posts').expect(200)).body.object_type;
    assert.deepEqual(
      (type.metafields as Metafield[]).map((m) => m.key),
      ['summary', 'rank', 'subtitle'],
    );
  });

  it('refuses a key an own Metafield of one of its Objects has', async () => {
    // Own Metafields come from the legacy routes; set one on a stored Object directly.
    const objects = objectsCollection(suite.harness.db);
    const _id = new ObjectId(ids.empty);
    const own: Metafield[] = [{ type: 'text', title: 'Extra', key: 'extra', value: '' }];
    await objects.updateOne({ _id }, { $set: { own_metafields: own } });
    const refused = await api().post('/object-types/posts/metafields/summary/rename', { key: 'extra' }).expect(409);
    assert.match(refused.body.message, /1 Object of type 'posts' has an own Metafield with key 'extra'/);
    await objects.updateOne({ _id }, { $unset: { own_metafields: '' } });
  });

  it('is refused without the write key', async () => {
    const { keys } = suite;
    const res = await request(suite.harness.app)
      .post(`/v3/buckets/${keys.slug}/object-types/posts/metafields/summary/rename?read_key=${keys.read_key ?? ''}`)
      .send({ key: 'teaser' });
    assert.equal(res.status, 401);
  });

  it('a rename carries every value to the new key on all views, keeps revisions, and answers the count', async () => {
    const revisions = () => revisionsCollection(suite.harness.db).find({ type: 'posts' }).sort({ _id: 1 }).toArray();
    const before = await revisions();
    assert.ok(before.some((r) => r.metadata.summary === 'draft summary'));
    // Cached before the rename: the rename must not leave these behind.
    await api()
      .get(q({ type: 'posts' }, '&status=any'))
      .expect(200);
    await api()
      .get(`/objects/${ids.live ?? ''}?status=any`)
      .expect(200);

    const res = await api().post('/object-types/posts/metafields/summary/rename', { key: 'teaser' }).expect(200);
    assert.equal(res.body.objects_changed, 4, 'live, drafted, draft only and empty held the key');
    const keys = (res.body.object_type.metafields as Metafield[]).map((m) => [m.key, m.title]);
    assert.deepEqual(keys, [
      ['teaser', 'Summary'],
      ['rank', 'Rank'],
      ['subtitle', 'Strapline'],
    ]);

    const drafted = ids.drafted ?? '';
    const latest = await read(drafted, 'any');
    assert.equal(latest.metadata.teaser, 'draft summary');
    assert.equal('summary' in latest.metadata, false);
    const live = await read(drafted, 'published');
    assert.equal(live.metadata.teaser, 'published summary');
    assert.equal('summary' in live.metadata, false);
    assert.equal((await read(ids.draft ?? '', 'draft')).metadata.teaser, 'never published');
    assert.equal((await read(ids.live ?? '', 'any')).metadata.teaser, 'live summary');

    assert.deepEqual(await revisions(), before, 'revisions keep what they recorded');

    const found = await api()
      .get(q({ type: 'posts', 'metadata.teaser': 'live summary' }))
      .expect(200);
    assert.deepEqual(
      (found.body.objects as Obj[]).map((o) => o.id),
      [ids.live],
    );
    const listed = await api()
      .get(q({ type: 'posts' }, '&status=any&props=id,metadata'))
      .expect(200);
    const byId = new Map((listed.body.objects as Obj[]).map((o) => [o.id, o.metadata]));
    assert.equal(byId.get(drafted)?.teaser, 'draft summary');
    // The old key is gone: a query on it matches nothing.
    await api()
      .get(q({ type: 'posts', 'metadata.summary': 'live summary' }))
      .expect(404);
    assert.equal(
      await objectTypesCollection(suite.harness.db).countDocuments({ slug: 'posts', 'key_rename.pending': true }),
      0,
    );
  });

  it('a sortable Metafield stays sortable under its new key', async () => {
    const res = await api().post('/object-types/posts/metafields/rank/rename', { key: 'position' }).expect(200);
    // Every Object holds the key, most with the empty value a number Metafield defaults to.
    assert.equal(res.body.objects_changed, 4);
    assert.equal((res.body.object_type.metafields as Metafield[])[1]?.sortable, true);
    const sorted = await api()
      .get(q({ type: 'posts' }, '&sort=-metadata.position'))
      .expect(200);
    assert.deepEqual(
      (sorted.body.objects as Obj[]).slice(0, 2).map((o) => o.metadata.position),
      [2, 1],
    );
    const old = await api()
      .get(q({ type: 'posts' }, '&sort=metadata.rank'))
      .expect(400);
    assert.match(old.body.message, /rank/);
  });

  it('a Metafield added after a rename may take the old key, and starts empty', async () => {
    const type = (await api().get('/object-types/posts').expect(200)).body.object_type;
    const metafields = [
      ...(type.metafields as Metafield[]),
      { type: 'text', title: 'Summary 2', key: 'summary', value: '' },
    ];
    await api().patch('/object-types/posts', { metafields }).expect(200);
    assert.equal((await read(ids.live ?? '', 'any')).metadata.summary ?? '', '');
    assert.deepEqual((await api().get('/object-types/posts/metafields/summary/usage').expect(200)).body, {
      objects: 0,
    });
  });
});

describe('a Metafield key rename a crash interrupted', () => {
  const suite = new BucketSuite('mfkeys-crash', async (api) => {
    await api.post('/object-types', { title: 'Notes', metafields: [fields[0]] }).expect(200);
    await api.post('/objects', { title: 'One', type: 'notes', metadata: { summary: 'kept' } }).expect(200);
  });

  it('is finished by the next type write, and by start-up repair', async () => {
    const { db } = suite.harness;
    // The state right after the commit point: the type has the new key, the Objects the old one.
    const commit = async (from: string, to: string) => {
      const type = await objectTypesCollection(db).findOne({ slug: 'notes' });
      const metafields = (type?.metafields ?? []).map((m) => (m.key === from ? { ...m, key: to } : m));
      await objectTypesCollection(db).updateOne(
        { slug: 'notes' },
        { $set: { metafields, key_rename: { from, to, pending: true } } },
      );
    };
    const value = async (status: string) => {
      const list = await suite.api.get(q({ type: 'notes' }, `&status=${status}`)).expect(200);
      return (list.body.objects as Obj[])[0]?.metadata;
    };
    await commit('summary', 'teaser');
    await suite.api.post('/object-types', { title: 'Other' }).expect(200);
    assert.deepEqual(await value('any'), { teaser: 'kept' });
    assert.deepEqual(await value('published'), { teaser: 'kept' });

    await commit('teaser', 'lede');
    assert.equal(await repairPendingRenames(db), 1);
    assert.deepEqual(await value('published'), { lede: 'kept' });
    assert.equal(await objectTypesCollection(db).countDocuments({ 'key_rename.pending': true }), 0);
  });
});
