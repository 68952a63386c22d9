import assert from 'node:assert/strict';
import request from 'supertest';
import { bucketClient } from '../support/client.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('Objects: create, read, update, delete', () => {
  const suite = new BucketSuite('crud', async () => {
    await suite.api
      .post('/object-types', {
        title: 'Posts',
        metafields: [
          { type: 'text', title: 'Subtitle', key: 'subtitle', value: 'default sub' },
          { type: 'number', title: 'Rank', key: 'rank', value: '' },
        ],
      })
      .expect(200);
    await suite.api
      .post('/object-types', { title: 'Pages', localization: true, locales: ['en', 'fr'], priority_locale: 'en' })
      .expect(200);
  });

  it('creates a published Object with every documented field', async () => {
    const res = await suite.api
      .post('/objects', { title: 'Hello World', type: 'posts', content: '<p>Hi</p>', metadata: { rank: 1 } })
      .expect(200);
    const o = res.body.object;
    assert.match(o.id, /^[0-9a-f]{24}$/);
    assert.equal(o.slug, 'hello-world');
    assert.equal(o.status, 'published');
    assert.equal(o.type, 'posts');
    assert.equal(o.content, '<p>Hi</p>');
    assert.deepEqual(o.metadata, { subtitle: 'default sub', rank: 1 });
    for (const k of ['created_at', 'modified_at', 'published_at'])
      assert.match(o[k], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const k of ['locale', 'thumbnail', 'created_by', 'modified_by', 'order']) assert.ok(k in o, k);
  });

  it('requires title and type, rejects unknown fields and unknown types', async () => {
    const res = await suite.api.post('/objects', { metadata: {}, colour: 1 }).expect(400);
    assert.match(res.body.message, /title/);
    assert.match(res.body.message, /type/);
    assert.match(res.body.message, /colour/);
    const unknownType = await suite.api.post('/objects', { title: 'X', type: 'ghosts' }).expect(400);
    assert.match(unknownType.body.message, /Unknown object type "ghosts"/);
  });

  it('derives slugs with unicode folded to ASCII', async () => {
    const res = await suite.api.post('/objects', { title: 'Crème Brûlée: Größe & Ñandú!', type: 'posts' }).expect(200);
    assert.equal(res.body.object.slug, 'creme-brulee-grosse-nandu');
  });

  it('suffixes a derived slug that is taken and refuses an explicit duplicate with 400', async () => {
    await suite.api.post('/objects', { title: 'Same', type: 'posts' }).expect(200);
    const second = await suite.api.post('/objects', { title: 'Same', type: 'posts' }).expect(200);
    assert.match(second.body.object.slug, /^same-\d+$/);
    const dup = await suite.api.post('/objects', { title: 'Other', type: 'posts', slug: 'same' }).expect(400);
    assert.match(dup.body.message, /slug 'same' already exists/);
  });

  it('gives 20 concurrent creates of one title 20 distinct slugs', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => suite.api.post('/objects', { title: 'Race Title', type: 'posts' })),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      Array(20).fill(200),
    );
    const slugs = new Set(results.map((r) => r.body.object.slug));
    assert.equal(slugs.size, 20);
    assert.ok(slugs.has('race-title'));
  });

  it('PATCH changes only sent properties and, within metadata, only sent keys', async () => {
    const created = (
      await suite.api
        .post('/objects', { title: 'Patch Me', type: 'posts', content: 'c1', metadata: { subtitle: 's1', rank: 5 } })
        .expect(200)
    ).body.object;
    const res = await suite.api.patch(`/objects/${created.id}`, { metadata: { rank: 6 } }).expect(200);
    const o = res.body.object;
    assert.equal(o.title, 'Patch Me');
    assert.equal(o.content, 'c1');
    assert.deepEqual(o.metadata, { subtitle: 's1', rank: 6 });
    const titled = await suite.api.patch(`/objects/${created.id}`, { title: 'Patched' }).expect(200);
    assert.equal(titled.body.object.title, 'Patched');
    assert.equal(titled.body.object.slug, created.slug);
    assert.deepEqual(titled.body.object.metadata, { subtitle: 's1', rank: 6 });
  });

  it('PATCH rejects unknown fields and a slug taken by another Object', async () => {
    const a = (await suite.api.post('/objects', { title: 'Alpha', type: 'posts' }).expect(200)).body.object;
    await suite.api.post('/objects', { title: 'Beta', type: 'posts' }).expect(200);
    const bad = await suite.api.patch(`/objects/${a.id}`, { type: 'pages' }).expect(400);
    assert.match(bad.body.message, /type/);
    const dup = await suite.api.patch(`/objects/${a.id}`, { slug: 'beta' }).expect(400);
    assert.match(dup.body.message, /slug 'beta' already exists/);
  });

  it('drafts are hidden by default, visible with status=draft or any, and published by PATCH', async () => {
    const d = (await suite.api.post('/objects', { title: 'Draft One', type: 'posts', status: 'draft' }).expect(200))
      .body.object;
    assert.equal(d.status, 'draft');
    assert.equal(d.published_at, null);
    await suite.api.get(`/objects/${d.id}`).expect(404);
    await suite.api.get(`/objects/${d.id}?status=draft`).expect(200);
    await suite.api.get(`/objects/${d.id}?status=any`).expect(200);
    const pub = await suite.api.patch(`/objects/${d.id}`, { status: 'published' }).expect(200);
    assert.equal(pub.body.object.status, 'published');
    assert.ok(pub.body.object.published_at);
    await suite.api.get(`/objects/${d.id}`).expect(200);
  });

  it('GET one honours props, and rejects bad status/depth values', async () => {
    const o = (await suite.api.post('/objects', { title: 'Props', type: 'posts', metadata: { rank: 2 } }).expect(200))
      .body.object;
    const res = await suite.api.get(`/objects/${o.id}?props=id,title,metadata.rank`).expect(200);
    assert.deepEqual(res.body.object, { id: o.id, title: 'Props', metadata: { rank: 2 } });
    const bad = await suite.api.get(`/objects/${o.id}?status=all&depth=9`).expect(400);
    assert.match(bad.body.message, /status/);
    assert.match(bad.body.message, /depth/);
  });

  it('a malformed or unknown id is a 404 naming it', async () => {
    const res = await suite.api.get('/objects/not-an-id').expect(404);
    assert.equal(res.body.message, "Object with id 'not-an-id' not found in bucket 'crud'");
    await suite.api.get('/objects/aaaaaaaaaaaaaaaaaaaaaaaa').expect(404);
    await suite.api.patch('/objects/zzz', { title: 'x' }).expect(404);
    await suite.api.delete('/objects/zzz').expect(404);
  });

  it('DELETE answers the spec message and the Object is gone', async () => {
    const o = (await suite.api.post('/objects', { title: 'Bye', type: 'posts' }).expect(200)).body.object;
    const res = await suite.api.delete(`/objects/${o.id}?trigger_webhook=false`).expect(200);
    assert.deepEqual(res.body, { message: `Object with id '${o.id}' deleted successfully from bucket.` });
    await suite.api.get(`/objects/${o.id}?status=any`).expect(404);
  });

  it('localized types take one of their locales, defaulting to priority_locale; others take none', async () => {
    const dflt = await suite.api.post('/objects', { title: 'Home', type: 'pages' }).expect(200);
    assert.equal(dflt.body.object.locale, 'en');
    const fr = await suite.api.post('/objects', { title: 'Home', type: 'pages', locale: 'fr' }).expect(200);
    assert.equal(fr.body.object.slug, 'home', 'slugs are unique per locale');
    const bad = await suite.api.post('/objects', { title: 'Home', type: 'pages', locale: 'de' }).expect(400);
    assert.match(bad.body.message, /locale "de" is not one of the locales/);
    const notLocalized = await suite.api.post('/objects', { title: 'P', type: 'posts', locale: 'en' }).expect(400);
    assert.match(notLocalized.body.message, /not localized/);
  });

  it('Objects of one Bucket are invisible and untouchable from another', async () => {
    const o = (await suite.api.post('/objects', { title: 'Mine', type: 'posts' }).expect(200)).body.object;
    const otherKeys = await suite.harness.bucket('crud-other');
    const other = bucketClient(suite.harness.app, otherKeys);
    await other.get(`/objects/${o.id}?status=any`).expect(404);
    await other.patch(`/objects/${o.id}`, { title: 'Theirs' }).expect(404);
    await other.delete(`/objects/${o.id}`).expect(404);
    await other.get('/object-types/posts').expect(404);
    const stillMine = await suite.api.get(`/objects/${o.id}`).expect(200);
    assert.equal(stillMine.body.object.title, 'Mine');
    await request(suite.harness.app).get(`/v3/buckets/crud/objects/${o.id}?read_key=${otherKeys.read_key}`).expect(401);
  });
});
