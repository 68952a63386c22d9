import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { loadCosmicV1, type V1Bucket } from '../support/cosmic-v1.js';
import { freshHarness, type Harness } from '../support/harness.js';

type V1Obj = Record<string, unknown> & {
  _id: string;
  slug: string;
  type_slug: string;
  metadata: Record<string, unknown>;
};
interface Many {
  objects: V1Obj[];
  total: number;
}
interface One {
  object: V1Obj;
}
interface ErrorBody {
  status: number;
  code: string;
  message: string;
}

describe('legacy v1 API driven by the cosmicjs 3.4.4 client', () => {
  let h: Harness;
  let server: http.Server;
  let b: V1Bucket;
  let authorId = '';

  before(async () => {
    h = await freshHarness();
    const keys = await h.bucket('v1blog');
    server = http.createServer(h.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    const Cosmic = loadCosmicV1(`http://127.0.0.1:${String(port)}`);
    b = Cosmic().bucket({ slug: keys.slug, read_key: keys.read_key ?? '', write_key: keys.write_key ?? '' });
  });
  after(() => {
    server.close();
    assert.deepEqual(h.errors, []);
  });

  it('addObjectType creates types; getObjectTypes lists them', async () => {
    const authors = (await b.addObjectType({ title: 'Authors', slug: 'authors' })) as { object_type: { slug: string } };
    assert.equal(authors.object_type.slug, 'authors');
    await b.addObjectType({
      title: 'Posts',
      slug: 'posts',
      metafields: [
        { type: 'text', title: 'Headline', key: 'headline', value: '' },
        { type: 'object', title: 'Author', key: 'author', object_type: 'authors', value: '' },
      ],
    });
    const types = (await b.getObjectTypes()) as { object_types: { slug: string }[] };
    assert.deepEqual(types.object_types.map((t) => t.slug).sort(), ['authors', 'posts']);
  });

  it('addObject takes the v1 body (type_slug, metafields array, write_key in the body), published by default', async () => {
    const author = (await b.addObject({ type_slug: 'authors', title: 'Ada Lovelace' })) as One;
    authorId = author.object._id;
    assert.match(authorId, /^[0-9a-f]{24}$/);
    assert.equal(author.object.type_slug, 'authors');
    assert.equal(author.object.status, 'published');
    const post = (await b.addObject({
      type_slug: 'posts',
      title: 'Hello World',
      content: '<p>first (post)</p>',
      options: { slug_field: true },
      metafields: [
        { key: 'headline', type: 'text', value: 'Big news' },
        { key: 'author', type: 'object', value: authorId },
      ],
    })) as One;
    assert.equal(post.object.slug, 'hello-world');
    assert.equal(post.object.metadata.headline, 'Big news');
    const metafields = post.object.metafields as { key: string; value: unknown }[];
    assert.deepEqual(
      metafields.map((m) => [m.key, m.value]),
      [
        ['headline', 'Big news'],
        ['author', authorId],
      ],
    );
    await b.addObject({ type_slug: 'posts', title: 'Draft two', status: 'draft' });
  });

  it('addObject without the write key is refused with the error body', async () => {
    const res = await request(h.app).post('/v1/v1blog/add-object').send({ type_slug: 'posts', title: 'x' });
    assert.equal(res.status, 401);
    assert.equal((res.body as ErrorBody).code, 'unauthorized');
  });

  it('getObjects: type, status=all, sort, hide_metafields, props, q, filters and metadata', async () => {
    const published = (await b.getObjects({ type: 'posts' })) as Many;
    assert.deepEqual(
      published.objects.map((o) => o.slug),
      ['hello-world'],
    );
    const all = (await b.getObjects({ type: 'posts', status: 'all', sort: '-created_at' })) as Many;
    assert.deepEqual(
      all.objects.map((o) => o.slug),
      ['draft-two', 'hello-world'],
    );
    const hidden = (await b.getObjects({ type: 'posts', hide_metafields: true })) as Many;
    assert.equal(hidden.objects[0]?.metafields, undefined);
    const picked = (await b.getObjects({ type: 'posts', props: '_id,slug' })) as Many;
    assert.deepEqual(Object.keys(picked.objects[0] ?? {}).sort(), ['_id', 'slug']);
    const searched = (await b.getObjects({ q: '(post)' })) as Many;
    assert.deepEqual(
      searched.objects.map((o) => o.slug),
      ['hello-world'],
    );
    const byId = (await b.getObjects({ filters: { _id: authorId } })) as Many;
    assert.deepEqual(
      byId.objects.map((o) => o.slug),
      ['ada-lovelace'],
    );
    const connected = (await b.getObjects({ filters: { connected_to: authorId } })) as Many;
    assert.deepEqual(
      connected.objects.map((o) => o.slug),
      ['hello-world'],
    );
    const byMeta = (await b.getObjects({ metadata: { headline: 'Big news' } })) as Many;
    assert.equal(byMeta.total, 1);
    const deprecated = (await b.getObjects({ metafield_key: 'author', metafield_object_id: authorId })) as Many;
    assert.equal(deprecated.total, 1);
    const queried = (await b.getObjects({ query: { title: 'Hello World' } })) as Many;
    assert.equal(queried.total, 1);
  });

  it('getObjects with a bad status answers 400 with the error body; no match is a 404', async () => {
    const bad = (await b.getObjects({ status: 'maybe' })) as ErrorBody;
    assert.equal(bad.status, 400);
    assert.match(bad.message, /status must be one of published, draft, all/);
    const none = (await b.getObjects({ type: 'nothing' })) as ErrorBody;
    assert.equal(none.status, 404);
  });

  it('getObject by slug, with depth expanding the relationship', async () => {
    const one = (await b.getObject({ slug: 'hello-world', depth: 1 })) as One;
    assert.equal(one.object.title, 'Hello World');
    const author = one.object.metadata.author as Record<string, unknown>;
    assert.equal(author._id, authorId);
    const missing = (await b.getObject({ slug: 'nope' })) as ErrorBody;
    assert.equal(missing.status, 404);
  });

  it('getObjectsByType and searchObjectType read by type', async () => {
    const byType = (await b.getObjectsByType({ type_slug: 'posts', status: 'all' })) as Many;
    assert.equal(byType.total, 2);
    const found = (await b.searchObjectType({
      type_slug: 'posts',
      metafield_key: 'headline',
      metafield_value: 'Big news',
    })) as Many;
    assert.deepEqual(
      found.objects.map((o) => o.slug),
      ['hello-world'],
    );
  });

  it('editObject by slug, editObjectMetafields touches only the keys sent', async () => {
    const edited = (await b.editObject({ slug: 'hello-world', title: 'Hello again' })) as One;
    assert.equal(edited.object.title, 'Hello again');
    const patched = (await b.editObjectMetafields({
      slug: 'hello-world',
      metafields: [{ key: 'headline', type: 'text', title: 'Headline', value: 'Bigger news' }],
    })) as One;
    assert.equal(patched.object.metadata.headline, 'Bigger news');
    assert.equal(patched.object.metadata.author, authorId);
  });

  it('revisions: addObjectRevision and getObjectRevisions', async () => {
    const added = (await b.addObjectRevision({ slug: 'hello-world', title: 'Revised' })) as {
      revision: { revision_id: string; title: string };
    };
    assert.equal(added.revision.title, 'Revised');
    const list = (await b.getObjectRevisions({ slug: 'hello-world' })) as {
      revisions: { revision_id: string }[];
      total: number;
    };
    assert.ok(list.total >= 2);
    assert.equal(list.revisions[0]?.revision_id, added.revision.revision_id);
  });

  it('media: addMedia (write_key form field), getMedia with a v1 sort, deleteMedia', async () => {
    const up = (await b.addMedia({ media: { buffer: Buffer.from('hello'), originalname: 'a.txt' } })) as {
      media: { id: string };
    };
    assert.match(up.media.id, /^[0-9a-f]{24}$/);
    const list = (await b.getMedia({ sort: '-size' })) as { media: { _id: string }[] };
    assert.equal(list.media[0]?._id, up.media.id);
    const del = (await b.deleteMedia({ id: up.media.id })) as { message: string };
    assert.match(del.message, /deleted/);
  });

  it('webhooks: addWebhook, deleteWebhook', async () => {
    const added = (await b.addWebhook({
      title: 'hook',
      endpoint: 'https://example.com/hook',
      events: ['object.created'],
    })) as { webhook: { id: string } } | ErrorBody;
    assert.ok('webhook' in added, JSON.stringify(added));
    const del = (await b.deleteWebhook({ id: added.webhook.id })) as { message: string };
    assert.match(del.message, /deleted/);
  });

  it('editObjectType, deleteObject, deleteObjectType and getBucket', async () => {
    const edited = (await b.editObjectType({ slug: 'authors', title: 'Writers' })) as {
      object_type: { title: string };
    };
    assert.equal(edited.object_type.title, 'Writers');
    const deleted = (await b.deleteObject({ slug: 'draft-two' })) as { message: string };
    assert.match(deleted.message, /deleted/);
    const bucket = (await b.getBucket()) as { bucket: { slug: string; objects: V1Obj[]; object_types: unknown[] } };
    assert.equal(bucket.bucket.slug, 'v1blog');
    assert.deepEqual(bucket.bucket.objects.map((o) => o.slug).sort(), ['ada-lovelace', 'hello-world']);
    const gone = (await b.deleteObjectType({ slug: 'posts' })) as { message: string };
    assert.match(gone.message, /deleted/);
  });

  it('an unknown /v1 path answers 404 with the error body', async () => {
    const res = await request(h.app).get('/v1/v1blog/nothing/here');
    assert.equal(res.status, 404);
    assert.equal((res.body as ErrorBody).status, 404);
  });
});
