import assert from 'node:assert/strict';
import { BucketSuite } from '../support/bucket-suite.js';
import { everyMetafield } from '../support/fixtures.js';
import { mf } from '../support/metadata-helpers.js';

const text = (key: string, value = '') => mf('text', key, { value });
const og = mf('parent', 'og', { children: [text('title'), text('image_alt')] });
const seo = mf('parent', 'seo', { children: [text('meta_title'), text('meta_desc'), og] });
const links = mf('repeater', 'links', { repeater_fields: [text('label'), text('href', '/')] });

describe('Object metadata writes', () => {
  const suite = new BucketSuite('writes', async (api) => {
    await api.post('/object-types', { title: 'Pages', metafields: [seo, links] }).expect(200);
    await api.post('/object-types', { title: 'Authors' }).expect(200);
    await api.post('/object-types', { title: 'Posts', metafields: everyMetafield }).expect(200);
  });
  const create = async (metadata: Record<string, unknown>): Promise<string> =>
    (await suite.api.post('/objects', { title: 'P', type: 'pages', metadata }).expect(200)).body.object.id;

  describe('PATCH of a parent', () => {
    it('changes only the children sent and keeps the others', async () => {
      const id = await create({ seo: { meta_title: 'MT', meta_desc: 'MD' } });
      const res = await suite.api.patch(`/objects/${id}`, { metadata: { seo: { meta_title: 'MT2' } } }).expect(200);
      assert.equal(res.body.object.metadata.seo.meta_title, 'MT2');
      assert.equal(res.body.object.metadata.seo.meta_desc, 'MD');
      const again = await suite.api.get(`/objects/${id}?status=any`).expect(200);
      assert.equal(again.body.object.metadata.seo.meta_desc, 'MD');
    });

    it('does so at every depth of nested parents', async () => {
      const id = await create({ seo: { meta_title: 'MT', og: { title: 'OG', image_alt: 'Alt' } } });
      const res = await suite.api.patch(`/objects/${id}`, { metadata: { seo: { og: { title: 'OG2' } } } }).expect(200);
      assert.deepEqual(res.body.object.metadata.seo.og, { title: 'OG2', image_alt: 'Alt' });
      assert.equal(res.body.object.metadata.seo.meta_title, 'MT');
    });

    it('keeps the children of a draft revision made the same way', async () => {
      const id = await create({ seo: { meta_title: 'MT', meta_desc: 'MD' } });
      await suite.api.post(`/objects/${id}/revisions`, { metadata: { seo: { meta_desc: 'MD2' } } }).expect(200);
      const draft = await suite.api.get(`/objects/${id}?status=any`).expect(200);
      assert.deepEqual(
        [draft.body.object.metadata.seo.meta_title, draft.body.object.metadata.seo.meta_desc],
        ['MT', 'MD2'],
      );
    });
  });

  it('PATCH of a repeater replaces the whole array, items getting defaults for keys not sent', async () => {
    const id = await create({
      links: [
        { label: 'A', href: '/a' },
        { label: 'B', href: '/b' },
      ],
    });
    const res = await suite.api.patch(`/objects/${id}`, { metadata: { links: [{ label: 'C' }] } }).expect(200);
    assert.deepEqual(res.body.object.metadata.links, [{ label: 'C', href: '/' }]);
  });

  describe('values left unset', () => {
    /** An Object of everyMetafield's type with no value sent, as a read answers it (the fixture's defaults are empty). */
    const EMPTY: Record<string, unknown> = Object.fromEntries([
      ...['headline', 'summary', 'body', 'notes', 'size', 'extra'].map((k) => [k, '']),
      ...['colour', 'price', 'launch', 'image', 'author'].map((k) => [k, null]),
      ...['tags', 'related', 'links'].map((k) => [k, []]),
      ['featured', false],
      ['seo', { title: '', weight: null }],
    ]);

    it('answer the empty value of their kind, not "" whatever the type', async () => {
      const res = await suite.api.post('/objects', { title: 'E', type: 'posts' }).expect(200);
      assert.deepEqual(res.body.object.metadata, EMPTY);
      const read = await suite.api.get(`/objects/${res.body.object.id}`).expect(200);
      assert.deepEqual(read.body.object.metadata, EMPTY);
    });

    it('take "" on write as "no value", and take back the empty values a read answers', async () => {
      const full = { headline: 'Hi', price: 3, launch: '2026-01-31', colour: 'g', tags: ['news'], seo: { weight: 2 } };
      const id = (await suite.api.post('/objects', { title: 'F', type: 'posts', metadata: full }).expect(200)).body
        .object.id;
      const cleared = { headline: '', price: '', launch: '', colour: '', tags: '', seo: { weight: '' } };
      const res = await suite.api.patch(`/objects/${id}`, { metadata: cleared }).expect(200);
      assert.deepEqual(res.body.object.metadata, EMPTY);
      await suite.api.patch(`/objects/${id}`, { metadata: EMPTY }).expect(200);
    });

    it('are stored as answered, so a query for the answered value finds them', async () => {
      const id = (await suite.api.post('/objects', { title: 'Q', type: 'posts' }).expect(200)).body.object.id;
      const query = JSON.stringify({ id, 'metadata.price': null, 'metadata.colour': null, 'metadata.launch': null });
      const found = await suite.api.get(`/objects?props=id&query=${encodeURIComponent(query)}`).expect(200);
      assert.deepEqual(found.body.objects, [{ id }]);
    });
  });

  describe('after the type changes', () => {
    const code = (extra = {}) => mf('text', 'code', { value: '', ...extra });
    const notes = (metafields: unknown[]) => suite.api.patch('/object-types/notes', { metafields }).expect(200);
    const read = async (id: string) => (await suite.api.get(`/objects/${id}`).expect(200)).body.object.metadata;
    before(() => suite.api.post('/object-types', { title: 'Notes', metafields: [code(), text('old')] }).expect(200));

    it('answers only the current Metafields, and keeps the stored values of removed ones', async () => {
      await notes([code(), text('old')]);
      const id = (
        await suite.api.post('/objects', { title: 'N', type: 'notes', metadata: { old: 'kept' } }).expect(200)
      ).body.object.id;
      await notes([code()]);
      assert.deepEqual(await read(id), { code: '' });
      await suite.api.patch(`/objects/${id}`, { metadata: { code: 'C1' } }).expect(200);
      const revisions = (await suite.api.get(`/objects/${id}/revisions`).expect(200)).body.revisions;
      assert.ok(revisions.every((r: { metadata: object }) => !('old' in r.metadata)));
      await notes([code(), text('old')]);
      assert.deepEqual(await read(id), { code: 'C1', old: 'kept' });
    });

    it('enforces a Metafield made required later on the next write of each Object', async () => {
      await notes([code(), text('old')]);
      const id = (await suite.api.post('/objects', { title: 'N', type: 'notes' }).expect(200)).body.object.id;
      await notes([code({ required: true })]);
      await suite.api.get(`/objects/${id}`).expect(200);
      const title = await suite.api.patch(`/objects/${id}`, { title: 'Renamed' }).expect(400);
      assert.match(title.body.message, /invalid value for key "code" of type "text": a value is required/);
      const draft = await suite.api.post(`/objects/${id}/revisions`, { title: 'Draft' }).expect(400);
      assert.match(draft.body.message, /key "code" of type "text": a value is required/);
      await suite.api.patch(`/objects/${id}`, { title: 'Renamed', metadata: { code: 'C2' } }).expect(200);
    });

    it('enforces a required child made so later inside a parent', async () => {
      const parent = (required: boolean) => mf('parent', 'box', { children: [code({ required }), text('note')] });
      await notes([parent(false)]);
      const id = (await suite.api.post('/objects', { title: 'N', type: 'notes' }).expect(200)).body.object.id;
      await notes([parent(true)]);
      const res = await suite.api.patch(`/objects/${id}`, { metadata: { box: { note: 'n' } } }).expect(400);
      assert.match(res.body.message, /key "box.code" of type "text": a value is required/);
    });
  });
});
