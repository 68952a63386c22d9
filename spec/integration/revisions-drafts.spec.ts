import assert from 'node:assert/strict';
import request from 'supertest';
import { BucketSuite } from '../support/bucket-suite.js';

describe('revisions, drafts and publishing', () => {
  let id: string;
  const suite = new BucketSuite('revs', async () => {
    await suite.api
      .post('/object-types', { title: 'Posts', metafields: [{ type: 'text', title: 'Body', key: 'body', value: '' }] })
      .expect(200);
    id = (await suite.api.post('/objects', { title: 'V1', type: 'posts', metadata: { body: 'one' } }).expect(200)).body
      .object.id;
  });

  const titleAs = async (status: string) =>
    (await suite.api.get(`/objects/${id}?status=${status}`).expect(200)).body.object.title;

  it('records a revision for the create and for every update', async () => {
    await suite.api.patch(`/objects/${id}`, { title: 'V2' }).expect(200);
    const res = await suite.api.get(`/objects/${id}/revisions`).expect(200);
    assert.equal(res.body.total, 2);
    assert.deepEqual(
      res.body.revisions.map((r: { title: string }) => r.title),
      ['V2', 'V1'],
    );
    assert.deepEqual(
      res.body.revisions.map((r: { reason: string }) => r.reason),
      ['edit', 'create'],
    );
    assert.equal(res.body.revisions[1].metadata.body, 'one');
  });

  it('a draft revision leaves live content unchanged and shows with status=any only', async () => {
    const rev = await suite.api
      .post(`/objects/${id}/revisions`, { title: 'V3 draft', metadata: { body: 'three' }, status: 'draft' })
      .expect(200);
    assert.equal(rev.body.revision.status, 'draft');
    assert.equal(rev.body.revision.title, 'V3 draft');
    assert.equal(await titleAs('published'), 'V2');
    assert.equal(await titleAs('any'), 'V3 draft');
    assert.equal(await titleAs('draft'), 'V3 draft');
    const list = await suite.api.get(`/objects?query=${encodeURIComponent(JSON.stringify({ id }))}`).expect(200);
    assert.equal(list.body.objects[0].title, 'V2');
    assert.equal(list.body.objects[0].metadata.body, 'one');
  });

  it('PATCH status published alone publishes the latest draft and sets published_at', async () => {
    const before = (await suite.api.get(`/objects/${id}`).expect(200)).body.object.published_at;
    const res = await suite.api.patch(`/objects/${id}`, { status: 'published' }).expect(200);
    assert.equal(res.body.object.title, 'V3 draft');
    assert.equal(res.body.object.status, 'published');
    assert.ok(Date.parse(res.body.object.published_at) >= Date.parse(before));
    assert.equal(await titleAs('published'), 'V3 draft');
    const revs = await suite.api.get(`/objects/${id}/revisions?sort=-created_at&limit=1`).expect(200);
    assert.equal(revs.body.revisions[0].reason, 'publish');
    assert.equal(revs.body.revisions[0].status, 'published');
  });

  it('PATCH status published with fields publishes those fields', async () => {
    await suite.api.post(`/objects/${id}/revisions`, { title: 'Ignored draft' }).expect(200);
    const res = await suite.api.patch(`/objects/${id}`, { status: 'published', title: 'V4' }).expect(200);
    assert.equal(res.body.object.title, 'V4');
    assert.equal(await titleAs('published'), 'V4');
  });

  it('PATCH status draft saves a draft and keeps the live version', async () => {
    await suite.api.patch(`/objects/${id}`, { status: 'draft', title: 'V5 draft' }).expect(200);
    assert.equal(await titleAs('published'), 'V4');
    assert.equal(await titleAs('any'), 'V5 draft');
  });

  it('a never-published draft is invisible by default and found with status=draft', async () => {
    const d = (await suite.api.post('/objects', { title: 'Only draft', type: 'posts', status: 'draft' }).expect(200))
      .body.object;
    await suite.api.get(`/objects/${d.id}`).expect(404);
    const drafts = await suite.api
      .get(`/objects?query=${encodeURIComponent('{"type":"posts"}')}&status=draft`)
      .expect(200);
    assert.deepEqual(drafts.body.objects.map((o: { title: string }) => o.title).sort(), ['Only draft', 'V5 draft']);
  });

  it('gets one revision with metadata as of that point, and sorts and pages the list', async () => {
    const all = await suite.api.get(`/objects/${id}/revisions?sort=created_at`).expect(200);
    const first = all.body.revisions[0];
    assert.equal(first.title, 'V1');
    const one = await suite.api.get(`/objects/${id}/revisions/${first.id}`).expect(200);
    assert.equal(one.body.revision.metadata.body, 'one');
    const page = await suite.api.get(`/objects/${id}/revisions?sort=created_at&limit=2&skip=1&props=title`).expect(200);
    assert.deepEqual(page.body.revisions, [
      { title: all.body.revisions[1].title },
      { title: all.body.revisions[2].title },
    ]);
    assert.equal(page.body.total, all.body.total);
    await suite.api.get(`/objects/${id}/revisions?sort=title`).expect(400);
  });

  it('validates draft revision metadata like Object writes', async () => {
    const res = await suite.api.post(`/objects/${id}/revisions`, { metadata: { body: 5 } }).expect(400);
    assert.match(res.body.message, /key "body" of type "text"/);
    await suite.api.post(`/objects/${id}/revisions`, { status: 'published' }).expect(400);
    await suite.api.post(`/objects/${id}/revisions`, { colour: 'x' }).expect(400);
  });

  it('answers 404 for a wrong Object or revision id, and has no edit or delete routes', async () => {
    await suite.api.get('/objects/aaaaaaaaaaaaaaaaaaaaaaaa/revisions').expect(404);
    const missing = await suite.api.get(`/objects/${id}/revisions/aaaaaaaaaaaaaaaaaaaaaaaa`).expect(404);
    assert.match(missing.body.message, /Revision with id 'aaaaaaaaaaaaaaaaaaaaaaaa' not found/);
    await suite.api.get(`/objects/${id}/revisions/nope`).expect(404);
    const rev = (await suite.api.get(`/objects/${id}/revisions?limit=1`).expect(200)).body.revisions[0];
    const { app } = suite.harness;
    for (const method of ['patch', 'delete', 'put'] as const) {
      const res = await request(app)[method](`/v3/buckets/revs/objects/${id}/revisions/${rev.id}`).expect(200);
      assert.equal(res.body.message, 'Route not found');
    }
    const still = await suite.api.get(`/objects/${id}/revisions/${rev.id}`).expect(200);
    assert.equal(still.body.revision.title, rev.title);
  });
});
