import assert from 'node:assert/strict';
import request from 'supertest';
import { member, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { BucketSuite } from '../support/bucket-suite.js';

/*
 * A contributor limited to `posts`, on the routes that do not name a type up front: lists narrow
 * to its types, single Objects (by id or v1 slug) are looked up and refused when of another type,
 * and a batch refuses the operations touching other types one by one. v3, v2 and v1 paths.
 */
const SLUG = 'contrib';
const v3 = `/v3/buckets/${SLUG}`;
const v2 = `/v2/buckets/${SLUG}`;
const v1 = `/v1/${SLUG}`;
let token: string;
const ids: Record<string, string> = {};

const as = (t: string) => ({
  get: (path: string) => request(suite.harness.app).get(path).set('Authorization', `Bearer ${t}`),
  send: (method: 'post' | 'put' | 'patch' | 'delete', path: string, body: object = {}) =>
    request(suite.harness.app)[method](path).set('Authorization', `Bearer ${t}`).send(body),
});
const contributor = () => as(token);
const withKey = () => as(String(suite.keys.write_key));

async function create(type: string, title: string, slug: string): Promise<string> {
  const res = await withKey().send('post', `${v3}/objects`, { type, title, slug, status: 'published' }).expect(200);
  return String(res.body.object.id);
}

const typesOf = (objects: { type?: string; type_slug?: string }[]) =>
  [...new Set(objects.map((o) => o.type ?? o.type_slug))].sort();

function isForbidden(res: request.Response, what: string): void {
  assert.equal(res.status, 403, `${what}: ${res.text}`);
  assert.equal(res.body.code, 'forbidden', what);
  assert.match(res.body.message, /contributor role is limited to the Object types posts/, what);
}

let suite: BucketSuite;

describe('accounts: a contributor on routes that name no type', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  suite = new BucketSuite(SLUG, async (_api, context) => {
    context.timeout(PASSWORD_WORK_TIMEOUT_MS);
    for (const title of ['Posts', 'Pages']) {
      await withKey().send('post', `${v3}/object-types`, { title }).expect(200);
    }
    ids.post = await create('posts', 'Hello', 'hello');
    ids.page = await create('pages', 'About', 'about');
    ids.sharedPost = await create('posts', 'Shared post', 'shared');
    ids.sharedPage = await create('pages', 'Shared page', 'shared');
    await member(suite.harness, SLUG, 'contributor@example.com', { role: 'contributor', object_types: ['posts'] });
    token = await tokenOf(suite.harness, 'contributor@example.com');
  });

  it('v3: a list without a type shows only its types, also after a full list was cached', async () => {
    const full = await request(suite.harness.app)
      .get(`${v3}/objects?read_key=${String(suite.keys.read_key)}&props=id,type`)
      .expect(200);
    assert.deepEqual(typesOf(full.body.objects), ['pages', 'posts']);
    const res = await contributor().get(`${v3}/objects?props=id,type`).expect(200);
    assert.deepEqual(typesOf(res.body.objects), ['posts']);
    assert.equal(res.body.total, 2);
    const operator = encodeURIComponent(JSON.stringify({ type: { $in: ['posts', 'pages'] } }));
    const narrowed = await contributor().get(`${v3}/objects?props=id,type&query=${operator}`).expect(200);
    assert.deepEqual(typesOf(narrowed.body.objects), ['posts']);
    const other = encodeURIComponent(JSON.stringify({ type: { $eq: 'pages' } }));
    isForbidden(await contributor().get(`${v3}/objects?query=${other}`), 'a list naming pages');
  });

  it('v3: one Object by id is 403 when of another type, 404 when absent (as for an admin)', async () => {
    await contributor().get(`${v3}/objects/${ids.post}`).expect(200);
    isForbidden(await contributor().get(`${v3}/objects/${ids.page}`), 'read page');
    isForbidden(await contributor().send('patch', `${v3}/objects/${ids.page}`, { title: 'x' }), 'edit page');
    isForbidden(await contributor().send('delete', `${v3}/objects/${ids.page}`), 'delete page');
    isForbidden(await contributor().get(`${v3}/objects/${ids.page}/revisions`), 'revisions of page');
    await contributor().send('post', `${v3}/preview-tokens`, { object_id: ids.post }).expect(200);
    isForbidden(await contributor().send('post', `${v3}/preview-tokens`, { object_id: ids.page }), 'preview of page');
    await contributor().send('post', `${v3}/preview-tokens`, {}).expect(403);
    const absent = 'a'.repeat(24);
    await contributor().get(`${v3}/objects/${absent}`).expect(404);
    await withKey().get(`${v3}/objects/${absent}`).expect(404);
  });

  it('v2: the list narrows to its types; one Object of another type is 403', async () => {
    const res = await contributor().get(`${v2}/objects?props=id,type`).expect(200);
    assert.deepEqual(typesOf(res.body.objects), ['posts']);
    await contributor().get(`${v2}/objects/${ids.post}`).expect(200);
    isForbidden(await contributor().get(`${v2}/objects/${ids.page}`), 'v2 read page');
    isForbidden(await contributor().get(`${v2}/objects/${ids.page}/metafields`), 'v2 metafields of page');
  });

  it('v1: lists narrow to its types; a list by another type is 403', async () => {
    const all = await contributor().get(`${v1}/objects`).expect(200);
    assert.deepEqual(typesOf(all.body.objects), ['posts']);
    assert.equal(all.body.total, 2);
    const byType = await contributor().get(`${v1}/object-type/posts`).expect(200);
    assert.deepEqual(typesOf(byType.body.objects), ['posts']);
    isForbidden(await contributor().get(`${v1}/object-type/pages`), 'v1 list of pages');
    isForbidden(await contributor().get(`${v1}/object-type/pages/search`), 'v1 search of pages');
    isForbidden(await contributor().get(`${v1}/objects?type=pages`), 'v1 list ?type=pages');
  });

  it('v1: an Object by slug is looked up: 403 of another type, 404 when absent, its own type when shared', async () => {
    const hello = await contributor().get(`${v1}/object/hello`).expect(200);
    assert.equal(hello.body.object.type_slug, 'posts');
    isForbidden(await contributor().get(`${v1}/object/about`), 'v1 read about');
    isForbidden(await contributor().get(`${v1}/object/about/revisions`), 'v1 revisions of about');
    await contributor().get(`${v1}/object/nothing-here`).expect(404);
    await request(suite.harness.app)
      .get(`${v1}/object/nothing-here?read_key=${String(suite.keys.read_key)}`)
      .expect(404);
    const shared = await contributor().get(`${v1}/object/shared`).expect(200);
    assert.equal(shared.body.object._id, ids.sharedPost);
    const revs = await contributor().get(`${v1}/object/shared/revisions`).expect(200);
    assert.ok(revs.body.revisions.every((r: { _id: string }) => r._id === ids.sharedPost));
  });

  it('v1: edits and deletes by slug or id touch its types only', async () => {
    isForbidden(await contributor().send('put', `${v1}/edit-object`, { slug: 'about', title: 'x' }), 'edit about');
    isForbidden(await contributor().send('put', `${v1}/edit-object`, { id: ids.page, title: 'x' }), 'edit page by id');
    isForbidden(
      await contributor().send('patch', `${v1}/edit-object-metafields`, { slug: 'about', metafields: [] }),
      'edit metafields of about',
    );
    isForbidden(await contributor().send('delete', `${v1}/delete-object`, { slug: 'about' }), 'delete-object about');
    isForbidden(await contributor().send('delete', `${v1}/objects/about`), 'DELETE objects/about');
    const edited = await contributor()
      .send('put', `${v1}/edit-object`, { slug: 'shared', title: 'Shared post, edited' })
      .expect(200);
    assert.equal(edited.body.object._id, ids.sharedPost);
    const page = await withKey().get(`${v3}/objects/${ids.sharedPage}`).expect(200);
    assert.equal(page.body.object.title, 'Shared page');
    await withKey().get(`${v3}/objects/${ids.page}`).expect(200);
  });

  it('batch: each operation is checked against the type of the Object it touches, named in its error', async () => {
    const res = await contributor()
      .send('post', `${v3}/objects/batch`, {
        operations: [
          { method: 'add', object: { type: 'posts', title: 'Batched', status: 'draft' } },
          { method: 'add', object: { type: 'pages', title: 'Nope', status: 'draft' } },
          { method: 'edit', object_id: ids.page, object: { title: 'Nope' } },
          { method: 'delete', object_id: ids.page },
          { method: 'edit', object_id: ids.post, object: { title: 'Hello again' } },
          { method: 'edit', object_id: ids.post, object: { type: 'pages' } },
          { method: 'delete', object_id: 'b'.repeat(24) },
        ],
      })
      .expect(200);
    const ops = res.body.operations as { method: string; status: number; code?: string; message?: string }[];
    assert.deepEqual(
      ops.map((o) => o.status),
      [200, 403, 403, 403, 200, 403, 404],
    );
    for (const [i, method] of [
      [1, 'add'],
      [2, 'edit'],
      [3, 'delete'],
      [5, 'edit'],
    ] as const) {
      const op = ops[i];
      assert.ok(op);
      assert.equal(op.code, 'forbidden');
      assert.match(
        String(op.message),
        new RegExp(`^operations\\[${i}\\] \\(${method}\\): .*contributor role is limited to the Object types posts`),
      );
    }
    const page = await withKey().get(`${v3}/objects/${ids.page}`).expect(200);
    assert.equal(page.body.object.title, 'About');
    const post = await withKey().get(`${v3}/objects/${ids.post}`).expect(200);
    assert.equal(post.body.object.type, 'posts');
    assert.equal(post.body.object.title, 'Hello again');
  });

  it('depth does not expand a related Object of another type, on a list or one Object, cached or not', async () => {
    const related = { type: 'object', title: 'Related', key: 'related', value: '', object_type: 'pages' };
    await withKey()
      .send('patch', `${v3}/object-types/posts`, { metafields: [related] })
      .expect(200);
    const made = await withKey()
      .send('post', `${v3}/objects`, {
        type: 'posts',
        title: 'Linked',
        status: 'published',
        metadata: { related: ids.page },
      })
      .expect(200);
    const linked = String(made.body.object.id);
    const one = `${v3}/objects/${linked}?depth=1&props=metadata`;
    const list = `${v3}/objects?depth=1&props=id,metadata&query=${encodeURIComponent(JSON.stringify({ id: linked }))}`;
    for (const path of [one, list]) {
      const full = await withKey().get(path).expect(200);
      const shown = path === one ? full.body.object : full.body.objects[0];
      assert.equal(shown.metadata.related.id, ids.page, 'a key sees the page');
      const res = await contributor().get(path).expect(200);
      const seen = path === one ? res.body.object : res.body.objects[0];
      assert.equal(seen.metadata.related, null, `${path}: ${JSON.stringify(seen.metadata)}`);
    }
  });

  it('a Bucket key in the same request is not narrowed', async () => {
    const res = await request(suite.harness.app)
      .get(`${v3}/objects?props=id,type&read_key=${String(suite.keys.read_key)}`)
      .expect(200);
    assert.deepEqual(typesOf(res.body.objects), ['pages', 'posts']);
  });
});
