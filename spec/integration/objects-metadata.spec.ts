import assert from 'node:assert/strict';
import request from 'supertest';
import { everyMetafield } from '../support/fixtures.js';
import { imageBytes, upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('Object metadata validation and rendering', () => {
  let authorId: string;
  let otherTypeId: string;
  let photoName: string;
  const suite = new BucketSuite('meta', async () => {
    // File values must name media of the Bucket, so the image is really uploaded.
    photoName = (
      await upload(suite.harness.app, suite.keys, await imageBytes(8, 6, 'png'), { filename: 'photo.png' }).expect(200)
    ).body.media.name;
    valid.image = photoName;
    await suite.api.post('/object-types', { title: 'Authors', metafields: [] }).expect(200);
    await suite.api.post('/object-types', { title: 'Misc' }).expect(200);
    await suite.api.post('/object-types', { title: 'Posts', metafields: everyMetafield }).expect(200);
    authorId = (await suite.api.post('/objects', { title: 'Ada', type: 'authors' }).expect(200)).body.object.id;
    otherTypeId = (await suite.api.post('/objects', { title: 'Thing', type: 'misc' }).expect(200)).body.object.id;
  });

  const valid: Record<string, unknown> = {
    headline: 'Hello',
    summary: 'short',
    body: '<p>x</p>',
    notes: '# n',
    colour: 'g',
    size: 'M',
    tags: ['news', 'tech'],
    featured: true,
    price: 9.5,
    launch: '2026-01-31',
    extra: { any: ['json', 1] },
    image: '', // the uploaded photo's name, set in before()
    seo: { title: 'SEO title', weight: 3 },
    links: [{ label: 'Home', href: '/' }],
  };

  it('accepts a valid value for every Metafield type and renders the documented shapes', async () => {
    const res = await suite.api
      .post('/objects', { title: 'All', type: 'posts', metadata: { ...valid, author: authorId, related: [authorId] } })
      .expect(200);
    const m = res.body.object.metadata;
    assert.deepEqual(m.colour, { key: 'g', value: 'Green' });
    assert.equal(m.author, authorId);
    assert.deepEqual(m.related, [authorId]);
    assert.deepEqual(m.seo, { title: 'SEO title', weight: 3 });
    assert.deepEqual(m.links, [{ label: 'Home', href: '/' }]);
    assert.deepEqual(m.tags, ['news', 'tech']);
    assert.equal(m.featured, true);
    assert.equal(m.price, 9.5);
    assert.equal(m.launch, '2026-01-31');
    assert.deepEqual(m.extra, { any: ['json', 1] });
    assert.equal(m.image.url, `http://api.test/files/meta/${photoName}`);
    assert.equal(m.image.imgproc_url, `http://api.test/imgproc/meta/${photoName}`);
    const again = await suite.api.get(`/objects/${res.body.object.id}`).expect(200);
    assert.deepEqual(again.body.object.metadata, m);
  });

  const invalid: Array<[string, unknown, RegExp]> = [
    ['headline', 'lowercase', /key "headline" of type "text": must start with a capital letter/],
    ['headline', 'A'.repeat(30), /key "headline" of type "text"/],
    ['summary', 5, /key "summary" of type "textarea"/],
    ['body', ['x'], /key "body" of type "html-textarea"/],
    ['notes', {}, /key "notes" of type "markdown"/],
    ['colour', 'blue', /key "colour" of type "select-dropdown"/],
    ['size', 'XL', /key "size" of type "radio-buttons"/],
    ['tags', ['sports'], /key "tags" of type "check-boxes"/],
    ['featured', 'yes', /key "featured" of type "switch"/],
    ['price', 'ten', /invalid value for key "price" of type "number": must be a number/],
    ['launch', '2026-02-30', /key "launch" of type "date"/],
    ['image', 42, /key "image" of type "file"/],
    ['author', 'not-an-id', /key "author" of type "object"/],
    ['related', 'abc', /key "related" of type "objects"/],
    ['seo', { title: 5 }, /key "seo.title" of type "text"/],
    ['links', [{ label: 1 }], /key "links/],
  ];
  for (const [key, value, message] of invalid) {
    it(`rejects an invalid ${key} value with a 400 naming key and type`, async () => {
      const res = await suite.api
        .post('/objects', { title: 'Bad', type: 'posts', metadata: { [key]: value } })
        .expect(400);
      assert.equal(res.body.status, 400);
      assert.match(res.body.message, message);
    });
  }

  it('json accepts any JSON value', async () => {
    for (const extra of [1, 'text', [1, { a: null }], true]) {
      await suite.api.post('/objects', { title: 'J', type: 'posts', metadata: { extra } }).expect(200);
    }
  });

  it('rejects a relationship to an Object that does not exist or is of the wrong type', async () => {
    const missing = await suite.api
      .post('/objects', { title: 'R', type: 'posts', metadata: { author: 'aaaaaaaaaaaaaaaaaaaaaaaa' } })
      .expect(400);
    assert.match(missing.body.message, /key "author" of type "object": no Object with id 'aaaaaaaaaaaaaaaaaaaaaaaa'/);
    const wrongType = await suite.api
      .post('/objects', { title: 'R', type: 'posts', metadata: { related: [otherTypeId] } })
      .expect(400);
    assert.match(wrongType.body.message, /is of type "misc", expected "authors"/);
  });

  it('answers props=metadata.image.imgproc_url with just that URL, and the URL serves the image', async () => {
    const id = (
      await suite.api.post('/objects', { title: 'Pic', type: 'posts', metadata: { image: photoName } }).expect(200)
    ).body.object.id;
    const res = await suite.api.get(`/objects/${id}?props=metadata.image.imgproc_url`).expect(200);
    assert.deepEqual(res.body.object, {
      metadata: { image: { imgproc_url: `http://api.test/imgproc/meta/${photoName}` } },
    });
    const list = await suite.api
      .get(`/objects?props=id,metadata.image.imgproc_url&query=${encodeURIComponent(JSON.stringify({ id }))}`)
      .expect(200);
    assert.deepEqual(list.body.objects, [
      { id, metadata: { image: { imgproc_url: `http://api.test/imgproc/meta/${photoName}` } } },
    ]);
    const image = await request(suite.harness.app).get(`/imgproc/meta/${photoName}?w=4`).expect(200);
    assert.equal(image.headers['content-type'], 'image/png');
  });

  it('rejects metadata keys the type does not define', async () => {
    const res = await suite.api.post('/objects', { title: 'U', type: 'posts', metadata: { nope: 1 } }).expect(400);
    assert.match(res.body.message, /nope/);
  });

  it('enforces required values on create and refuses emptying them on patch', async () => {
    await suite.api
      .post('/object-types', {
        title: 'Strict',
        metafields: [{ type: 'text', title: 'Code', key: 'code', value: '', required: true }],
      })
      .expect(200);
    const missing = await suite.api.post('/objects', { title: 'S', type: 'strict' }).expect(400);
    assert.match(missing.body.message, /key "code" of type "text"/);
    const ok = await suite.api.post('/objects', { title: 'S', type: 'strict', metadata: { code: 'A1' } }).expect(200);
    const emptied = await suite.api.patch(`/objects/${ok.body.object.id}`, { metadata: { code: '' } }).expect(400);
    assert.match(emptied.body.message, /key "code" of type "text"/);
  });
});
