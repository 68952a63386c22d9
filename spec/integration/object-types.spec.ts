import assert from 'node:assert/strict';
import request from 'supertest';
import { BucketSuite } from '../support/bucket-suite.js';

describe('Object types', () => {
  const suite = new BucketSuite('types', undefined, { JSON_BODY_LIMIT: '2kb' });

  it('creates a type from a title alone with documented defaults', async () => {
    const res = await suite.api.post('/object-types', { title: 'Blog Posts' }).expect(200);
    const t = res.body.object_type;
    assert.equal(t.slug, 'blog-posts');
    assert.equal(t.title, 'Blog Posts');
    assert.deepEqual(t.options, { slug_field: 1, content_editor: 1 });
    assert.deepEqual(t.metafields, []);
    assert.equal(t.localization, false);
    assert.match(t.id, /^[0-9a-f]{24}$/);
    assert.match(t.created_at, /^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it('renders boolean options as 1/0', async () => {
    const res = await suite.api
      .post('/object-types', { title: 'Pages', options: { slug_field: false, content_editor: true } })
      .expect(200);
    assert.deepEqual(res.body.object_type.options, { slug_field: 0, content_editor: 1 });
  });

  it('suffixes a derived slug that is taken and refuses an explicit duplicate', async () => {
    const again = await suite.api.post('/object-types', { title: 'Blog Posts' }).expect(200);
    assert.match(again.body.object_type.slug, /^blog-posts-\d+$/);
    const dup = await suite.api.post('/object-types', { title: 'Other', slug: 'pages' }).expect(400);
    assert.match(dup.body.message, /slug 'pages' already exists/);
  });

  it('rejects unknown fields and reports every problem in one 400', async () => {
    const res = await suite.api.post('/object-types', { singular: 5, colour: 'red' }).expect(400);
    assert.equal(res.body.status, 400);
    assert.match(res.body.message, /colour/);
    assert.match(res.body.message, /title/);
    assert.match(res.body.message, /singular/);
  });

  it('requires locales when localization is true and priority_locale among them', async () => {
    const a = await suite.api.post('/object-types', { title: 'L1', localization: true }).expect(400);
    assert.match(a.body.message, /locales/);
    const b = await suite.api
      .post('/object-types', { title: 'L2', localization: true, locales: ['en', 'fr'], priority_locale: 'de' })
      .expect(400);
    assert.match(b.body.message, /priority_locale "de" must be one of locales/);
    const ok = await suite.api
      .post('/object-types', { title: 'L3', localization: true, locales: ['en', 'fr'], priority_locale: 'fr' })
      .expect(200);
    assert.deepEqual(ok.body.object_type.locales, ['en', 'fr']);
  });

  it('lists types with full Metafields and gets one by slug', async () => {
    const metafields = [{ type: 'text', title: 'Headline', key: 'headline', value: '', required: true }];
    await suite.api.post('/object-types', { title: 'Articles', metafields }).expect(200);
    const list = await suite.api.get('/object-types').expect(200);
    const found = list.body.object_types.find((t: { slug: string }) => t.slug === 'articles');
    assert.deepEqual(found.metafields, metafields);
    const one = await suite.api.get('/object-types/articles').expect(200);
    assert.equal(one.body.object_type.title, 'Articles');
  });

  it('answers 404 naming an unknown type', async () => {
    const res = await suite.api.get('/object-types/ghosts').expect(404);
    assert.equal(res.body.message, "Object type with slug 'ghosts' not found in bucket 'types'");
  });

  it('PATCH changes only sent fields and replaces the whole metafields array', async () => {
    await suite.api
      .post('/object-types', {
        title: 'Products',
        emoji: '🛒',
        metafields: [{ type: 'number', title: 'Price', key: 'price', value: '' }],
      })
      .expect(200);
    const res = await suite.api
      .patch('/object-types/products', { metafields: [{ type: 'text', title: 'SKU', key: 'sku', value: '' }] })
      .expect(200);
    const t = res.body.object_type;
    assert.equal(t.emoji, '🛒');
    assert.deepEqual(
      t.metafields.map((m: { key: string }) => m.key),
      ['sku'],
    );
    assert.ok(Date.parse(t.modified_at) >= Date.parse(t.created_at));
  });

  it('PATCH with an empty body or unknown field is a 400', async () => {
    await suite.api.patch('/object-types/products', {}).expect(400);
    const res = await suite.api.patch('/object-types/products', { nope: 1 }).expect(400);
    assert.match(res.body.message, /nope/);
  });

  it('DELETE removes the type and every Object in it', async () => {
    await suite.api.post('/object-types', { title: 'Temp' }).expect(200);
    const obj = await suite.api.post('/objects', { title: 'Doomed', type: 'temp' }).expect(200);
    const res = await suite.api.delete('/object-types/temp?trigger_webhook=true').expect(200);
    assert.deepEqual(res.body, { message: "Object Type with slug 'temp' deleted successfully from bucket." });
    await suite.api.get('/object-types/temp').expect(404);
    await suite.api.get(`/objects/${obj.body.object.id}?status=any`).expect(404);
    assert.equal(await suite.harness.db.collection('objects').countDocuments({ type: 'temp' }), 0);
  });

  describe('write authentication', () => {
    it('refuses writes without the write key, with the read key, or with another Bucket’s key', async () => {
      const other = await suite.harness.bucket('other-types');
      const url = '/v3/buckets/types/object-types';
      const none = await request(suite.harness.app).post(url).send({ title: 'X' }).expect(401);
      assert.match(none.body.message, /requires the correct write access key/);
      await request(suite.harness.app)
        .post(url)
        .set('Authorization', `Bearer ${suite.keys.read_key}`)
        .send({ title: 'X' })
        .expect(401);
      await request(suite.harness.app)
        .post(url)
        .set('Authorization', `Bearer ${other.write_key}`)
        .send({ title: 'X' })
        .expect(401);
    });

    it('accepts the bare write key and a Bucket without a write key', async () => {
      await request(suite.harness.app)
        .post('/v3/buckets/types/object-types')
        .set('Authorization', suite.keys.write_key!)
        .send({ title: 'Bare' })
        .expect(200);
      await suite.harness.bucket('nowrite', { kind: 'generate' }, { kind: 'none' });
      await request(suite.harness.app).post('/v3/buckets/nowrite/object-types').send({ title: 'Free' }).expect(200);
    });
  });

  describe('body errors', () => {
    const post = () =>
      request(suite.harness.app)
        .post('/v3/buckets/types/object-types')
        .set('Authorization', `Bearer ${suite.keys.write_key}`);

    it('malformed JSON → 400 with the error body', async () => {
      const res = await post().set('Content-Type', 'application/json').send('{"title": ').expect(400);
      assert.equal(res.body.status, 400);
      assert.match(res.body.message, /Malformed JSON body/);
    });

    it('wrong content type → 415', async () => {
      const res = await post().set('Content-Type', 'text/plain').send('title=x').expect(415);
      assert.match(res.body.message, /Content-Type must be application\/json/);
    });

    it('body over the limit → 413', async () => {
      const res = await post()
        .send({ title: 'x'.repeat(5000) })
        .expect(413);
      assert.equal(res.body.status, 413);
      assert.match(res.body.message, /larger than/);
    });

    it('a JSON array or string body → 400', async () => {
      const res = await post().set('Content-Type', 'application/json').send('[1,2]').expect(400);
      assert.match(res.body.message, /object/);
    });
  });
});
