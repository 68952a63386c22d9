import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { forgetCosmicV1Token, loadCosmicV1, type CosmicV1, type V1Bucket } from '../support/cosmic-v1.js';
import { account, PASSWORD } from '../support/accounts.js';
import { BucketSuite } from '../support/bucket-suite.js';

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
/** The slugs of a list answer; anything else fails the test, showing the body. */
function slugs(page: unknown): string[] {
  assert.ok(typeof page === 'object' && page !== null && 'objects' in page, JSON.stringify(page));
  return (page as Many).objects.map((o) => o.slug);
}

/**
 * The unchanged cosmicjs 3.4.4 client against the service: every method of the client this
 * service serves (its extension methods are driven in extensions-client.spec.ts, against the test
 * sites they fetch; the account methods run last, as their token stays on the client). The client
 * answers error bodies instead of throwing, so errors are asserted as values.
 */
describe('legacy v1 API driven by the cosmicjs 3.4.4 client', () => {
  let server: http.Server;
  let Cosmic: CosmicV1;
  let b: V1Bucket;
  const ids: Record<string, string> = {};

  const suite = new BucketSuite('v1blog', async () => {
    server = http.createServer(suite.harness.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    Cosmic = loadCosmicV1(`http://127.0.0.1:${String(port)}`);
    b = Cosmic().bucket({
      slug: suite.keys.slug,
      read_key: suite.keys.read_key ?? '',
      write_key: suite.keys.write_key ?? '',
    });
  });
  after(() => {
    forgetCosmicV1Token();
    server.close();
  });

  it('addObjectType creates types; getObjectTypes lists them with _id', async () => {
    const authors = (await b.addObjectType({ title: 'Authors', slug: 'authors' })) as {
      object_type: { slug: string; _id: string };
    };
    assert.equal(authors.object_type.slug, 'authors');
    assert.match(authors.object_type._id, /^[0-9a-f]{24}$/);
    await b.addObjectType({
      title: 'Posts',
      slug: 'posts',
      metafields: [
        { type: 'text', title: 'Headline', key: 'headline', value: '' },
        { type: 'object', title: 'Author', key: 'author', object_type: 'authors', value: '' },
        { type: 'objects', title: 'Coauthors', key: 'coauthors', object_type: 'authors', value: '' },
      ],
    });
    const types = (await b.getObjectTypes()) as { object_types: { slug: string }[] };
    assert.deepEqual(types.object_types.map((t) => t.slug).sort(), ['authors', 'posts']);
  });

  it('addObject takes the v1 body (type_slug, metafields array, options, write_key in the body), published by default', async () => {
    for (const title of ['Ada Lovelace', 'Grace Hopper']) {
      const author = (await b.addObject({ type_slug: 'authors', title })) as One;
      assert.equal(author.object.type_slug, 'authors');
      assert.equal(author.object.status, 'published');
      ids[author.object.slug] = author.object._id;
    }
    const [ada = '', grace = ''] = [ids['ada-lovelace'], ids['grace-hopper']];
    const post = (await b.addObject({
      type_slug: 'posts',
      title: 'Hello World',
      content: '<p>first (post)</p>',
      options: { slug_field: false, content_editor: 1 },
      metafields: [
        { key: 'headline', type: 'text', value: 'Big news' },
        { key: 'author', type: 'object', value: ada },
        { key: 'coauthors', type: 'objects', value: `${ada},${grace}` },
      ],
    })) as One;
    ids.post = post.object._id;
    assert.equal(post.object.slug, 'hello-world');
    assert.deepEqual(post.object.metadata, { headline: 'Big news', author: ada, coauthors: [ada, grace] });
    const metafields = post.object.metafields as { key: string; value: unknown }[];
    assert.deepEqual(
      metafields.map((m) => [m.key, m.value]),
      [
        ['headline', 'Big news'],
        ['author', ada],
        ['coauthors', `${ada},${grace}`],
      ],
    );
    // Display options are the Object type's in this service.
    assert.deepEqual(post.object.options, { slug_field: 1, content_editor: 1 });
    const draft = (await b.addObject({ type_slug: 'posts', title: 'Draft two', status: 'draft' })) as One;
    assert.equal(draft.object.status, 'draft');
  });

  it('addObject refuses bad v1 bodies with the error body, naming the field', async () => {
    const noType = (await b.addObject({ title: 'x' })) as ErrorBody;
    assert.equal(noType.status, 400);
    assert.match(noType.message, /type_slug is required/);
    const badOptions = (await b.addObject({ type_slug: 'posts', title: 'x', options: { colour: 1 } })) as ErrorBody;
    assert.equal(badOptions.status, 400);
    assert.match(badOptions.message, /options\.colour/);
    const badValue = (await b.addObject({
      type_slug: 'posts',
      title: 'x',
      metafields: [{ key: 'author', type: 'object', value: 'not-an-id' }],
    })) as ErrorBody;
    assert.equal(badValue.status, 400);
    assert.match(badValue.message, /author/);
  });

  it('getObjects: type, status=all, sort, hide_metafields, props, q, query, limit and skip', async () => {
    assert.deepEqual(slugs(await b.getObjects({ type: 'posts' })), ['hello-world']);
    const all = (await b.getObjects({ type: 'posts', status: 'all', sort: '-created_at' })) as Many;
    assert.deepEqual(slugs(all), ['draft-two', 'hello-world']);
    const oldest = (await b.getObjects({ status: 'all', sort: 'created_at', limit: 2, skip: 1 })) as Many;
    assert.deepEqual(slugs(oldest), ['grace-hopper', 'hello-world']);
    assert.equal(oldest.total, 4);
    const random = (await b.getObjects({ status: 'all', sort: 'random' })) as Many;
    assert.deepEqual(slugs(random).sort(), ['ada-lovelace', 'draft-two', 'grace-hopper', 'hello-world']);
    const hidden = (await b.getObjects({ type: 'posts', hide_metafields: true })) as Many;
    assert.equal(hidden.objects[0]?.metafields, undefined);
    assert.equal(hidden.objects[0]?.metadata.headline, 'Big news');
    const picked = (await b.getObjects({ type: 'posts', props: '_id,slug,type_slug' })) as Many;
    assert.deepEqual(picked.objects[0], { _id: ids.post, slug: 'hello-world', type_slug: 'posts' });
    const onlyMetafields = (await b.getObjects({ type: 'posts', props: 'metafields' })) as Many;
    assert.deepEqual(Object.keys(onlyMetafields.objects[0] ?? {}), ['metafields']);
    assert.deepEqual(slugs((await b.getObjects({ q: '(post)' })) as Many), ['hello-world']);
    assert.equal(((await b.getObjects({ q: '.*' })) as ErrorBody).status, 404);
    assert.equal(((await b.getObjects({ query: { title: 'Hello World' } })) as Many).total, 1);
  });

  it('getObjects: metadata[key] (comma-separated ids), filters[_id], filters[connected_to], deprecated metafield_*', async () => {
    const [ada = '', grace = ''] = [ids['ada-lovelace'], ids['grace-hopper']];
    assert.deepEqual(slugs((await b.getObjects({ metadata: { headline: 'Big news' } })) as Many), ['hello-world']);
    assert.deepEqual(slugs((await b.getObjects({ metadata: { coauthors: `${grace},${ada}` } })) as Many), [
      'hello-world',
    ]);
    const byIds = (await b.getObjects({ filters: { _id: `${ada},${grace}` }, sort: 'created_at' })) as Many;
    assert.deepEqual(slugs(byIds), ['ada-lovelace', 'grace-hopper']);
    assert.deepEqual(slugs((await b.getObjects({ filters: { connected_to: grace } })) as Many), ['hello-world']);
    const deprecated = (await b.getObjects({ metafield_key: 'author', metafield_object_id: ada })) as Many;
    assert.deepEqual(slugs(deprecated), ['hello-world']);
    const byValue = (await b.getObjects({ metafield_key: 'headline', metafield_value: 'Big news' })) as Many;
    assert.equal(byValue.total, 1);
  });

  it('getObjects answers 400 with the error body for bad parameters; no match is a 404', async () => {
    const bad = (await b.getObjects({ status: 'maybe', sort: 'title' })) as ErrorBody;
    assert.equal(bad.status, 400);
    assert.equal(bad.code, 'invalid_parameter');
    assert.match(bad.message, /status must be one of published, draft, all.*sort must be one of/);
    const none = (await b.getObjects({ type: 'nothing' })) as ErrorBody;
    assert.equal(none.status, 404);
    assert.equal(none.code, 'no_match');
  });

  it('getObject by slug: depth expands relationships, status=all finds drafts, props narrows', async () => {
    const one = (await b.getObject({ slug: 'hello-world', depth: 1 })) as One;
    assert.equal(one.object.title, 'Hello World');
    const author = one.object.metadata.author as Record<string, unknown>;
    assert.equal(author._id, ids['ada-lovelace']);
    assert.equal(author.title, 'Ada Lovelace');
    assert.equal(((await b.getObject({ slug: 'draft-two' })) as ErrorBody).status, 404);
    assert.equal(((await b.getObject({ slug: 'draft-two', status: 'all' })) as One).object.status, 'draft');
    const picked = (await b.getObject({ slug: 'hello-world', props: 'title,metadata.headline' })) as One;
    assert.deepEqual(picked.object, { title: 'Hello World', metadata: { headline: 'Big news' } });
  });

  it('getObjectsByType and searchObjectType (metafield_value, metafield_object_slug, metafield_value_has)', async () => {
    assert.equal(((await b.getObjectsByType({ type_slug: 'posts', status: 'all' })) as Many).total, 2);
    const search = (params: Record<string, unknown>) => b.searchObjectType({ type_slug: 'posts', ...params });
    const byValue = (await search({ metafield_key: 'headline', metafield_value: 'Big news' })) as Many;
    assert.deepEqual(slugs(byValue), ['hello-world']);
    const bySlug = (await search({ metafield_key: 'author', metafield_object_slug: 'ada-lovelace' })) as Many;
    assert.deepEqual(slugs(bySlug), ['hello-world']);
    const has = (await search({ metafield_key: 'headline', metafield_value_has: 'BIG' })) as Many;
    assert.deepEqual(slugs(has), ['hello-world']);
    const nothing = (await search({ metafield_key: 'author', metafield_object_slug: 'nobody' })) as ErrorBody;
    assert.equal(nothing.status, 404);
  });

  it('editObject by slug or by id (which may rename); editObjectMetafields touches only the keys sent', async () => {
    const edited = (await b.editObject({ slug: 'hello-world', title: 'Hello again' })) as One;
    assert.equal(edited.object.title, 'Hello again');
    assert.equal(edited.object.slug, 'hello-world');
    const renamed = (await b.editObject({ id: ids.post, slug: 'hello-again' })) as One;
    assert.equal(renamed.object.slug, 'hello-again');
    const patched = (await b.editObjectMetafields({
      slug: 'hello-again',
      metafields: [{ key: 'headline', type: 'text', title: 'Headline', value: 'Bigger news' }],
    })) as One;
    assert.equal(patched.object.metadata.headline, 'Bigger news');
    assert.equal(patched.object.metadata.author, ids['ada-lovelace']);
    const missing = (await b.editObject({ slug: 'no-such-post', title: 'x' })) as ErrorBody;
    assert.equal(missing.status, 404);
  });

  it('addObject and editObjectMetafields with Metafields the type lacks: the Object keeps them as its own', async () => {
    const added = (await b.addObject({
      type_slug: 'posts',
      title: 'Own fields',
      metafields: [
        { key: 'headline', type: 'text', value: 'Own' },
        { key: 'mood', type: 'text', title: 'Mood', value: 'calm' },
      ],
    })) as One;
    assert.deepEqual(added.object.metadata, { headline: 'Own', author: null, coauthors: [], mood: 'calm' });
    const edited = (await b.editObjectMetafields({
      slug: 'own-fields',
      metafields: [
        { key: 'mood', type: 'text', title: 'Mood', value: 'glad' },
        { key: 'score', type: 'number', title: 'Score', value: '3' },
      ],
    })) as One;
    const metafields = edited.object.metafields as { key: string; value: unknown }[];
    assert.deepEqual(
      metafields.map((m) => [m.key, m.value]),
      [
        ['headline', 'Own'],
        ['author', null],
        ['coauthors', ''],
        ['mood', 'glad'],
        ['score', 3],
      ],
    );
    const read = (await b.getObject({ slug: 'own-fields' })) as One;
    assert.deepEqual(read.object.metadata, edited.object.metadata);
    await b.deleteObject({ slug: 'own-fields' });
  });

  it('revisions: addObjectRevision, getObjectRevisions, and getObject with revision', async () => {
    const added = (await b.addObjectRevision({ slug: 'hello-again', title: 'Revised' })) as {
      revision: { revision_id: string; _id: string; title: string; status: string };
    };
    assert.equal(added.revision.title, 'Revised');
    assert.equal(added.revision._id, ids.post);
    assert.equal(added.revision.status, 'draft');
    const list = (await b.getObjectRevisions({ slug: 'hello-again', limit: 2 })) as {
      revisions: { revision_id: string }[];
      total: number;
    };
    assert.ok(list.total >= 3);
    assert.equal(list.revisions.length, 2);
    assert.equal(list.revisions[0]?.revision_id, added.revision.revision_id);
    const live = (await b.getObject({ slug: 'hello-again' })) as One;
    assert.equal(live.object.title, 'Hello again');
    const asRevised = (await b.getObject({ slug: 'hello-again', revision: added.revision.revision_id })) as One;
    assert.equal(asRevised.object.title, 'Revised');
    assert.equal(asRevised.object._id, ids.post);
  });

  it('getMergeRequestObjects answers the Objects a merge request recorded, in the v1 shape; 404 for an unknown id', async () => {
    const made = await request(suite.harness.app)
      .post(`/v3/buckets/${suite.keys.slug}/merge-requests`)
      .set('Authorization', `Bearer ${suite.keys.write_key ?? ''}`)
      .send({ title: 'Revise the post', object_ids: [ids.post] })
      .expect(200);
    const mr = made.body as { merge_request: { id: string; objects: { revision_id: string }[] } };
    const page = (await b.getMergeRequestObjects({ id: mr.merge_request.id, limit: 5 })) as Many & { limit: number };
    assert.equal(page.total, 1);
    assert.equal(page.limit, 5);
    const [recorded] = page.objects;
    assert.ok(recorded, JSON.stringify(page));
    assert.equal(recorded._id, ids.post);
    assert.equal(recorded.title, 'Revised', 'the recorded draft, not the live version');
    assert.equal(recorded.type_slug, 'posts');
    assert.equal(recorded.revision_id, mr.merge_request.objects[0]?.revision_id);
    assert.ok(Array.isArray(recorded.metafields));
    const narrow = (await b.getMergeRequestObjects({ id: mr.merge_request.id, props: '_id,title' })) as Many;
    assert.deepEqual(narrow.objects, [{ _id: ids.post, title: 'Revised' }]);
    const res = (await b.getMergeRequestObjects({ id: 'mr-1' })) as ErrorBody;
    assert.equal(res.status, 404);
    assert.match(res.message, /Merge request with id 'mr-1' not found/);
  });

  it('media: addMedia (write_key form field), getMedia (props, folder), deleteMedia', async () => {
    const refused = (await b.addMedia({
      media: { buffer: Buffer.from('hello'), originalname: 'a.txt' },
      folder: 'Not A Slug',
    })) as ErrorBody;
    assert.deepEqual([refused.status, refused.code], [400, 'folder_unknown']);
    assert.match(refused.message, /'Not A Slug'/);
    // A folder the Bucket lacks is declared by the upload, as clients written before folders expect.
    const up = (await b.addMedia({
      media: { buffer: Buffer.from('hello'), originalname: 'a.txt' },
      folder: 'docs',
    })) as { media: { id: string } };
    assert.match(up.media.id, /^[0-9a-f]{24}$/);
    await b.addMedia({ media: { buffer: Buffer.from('a longer file'), originalname: 'b.txt' } });
    const list = (await b.getMedia({ props: '_id,original_name' })) as { media: unknown[]; total: number };
    assert.equal(list.total, 2);
    const inFolder = (await b.getMedia({ folder: 'docs', props: '_id,original_name' })) as { media: unknown[] };
    assert.deepEqual(inFolder.media, [{ _id: up.media.id, original_name: 'a.txt' }]);
    const del = (await b.deleteMedia({ id: up.media.id })) as { message: string };
    assert.match(del.message, /deleted/);
    assert.equal(((await b.getMedia({ folder: 'docs' })) as ErrorBody).status, 404);
  });

  it('deleteObject, editObjectType, getBucket and deleteObjectType', async () => {
    const deleted = (await b.deleteObject({ slug: 'draft-two' })) as { message: string };
    assert.match(deleted.message, /deleted/);
    assert.equal(((await b.getObject({ slug: 'draft-two', status: 'all' })) as ErrorBody).status, 404);
    const edited = (await b.editObjectType({ slug: 'authors', title: 'Writers' })) as {
      object_type: { title: string };
    };
    assert.equal(edited.object_type.title, 'Writers');
    const bucket = (await b.getBucket({ depth: 0 })) as {
      bucket: { slug: string; objects: V1Obj[]; object_types: unknown[]; media: unknown[] };
    };
    assert.equal(bucket.bucket.slug, 'v1blog');
    assert.deepEqual(bucket.bucket.objects.map((o) => o.slug).sort(), ['ada-lovelace', 'grace-hopper', 'hello-again']);
    assert.equal(bucket.bucket.object_types.length, 2);
    assert.equal(bucket.bucket.media.length, 1);
    // v1 kept a deleted type's Objects, which this service cannot: a type with Objects is refused, as on v2.
    const kept = (await b.deleteObjectType({ slug: 'posts' })) as ErrorBody & { code: string };
    assert.deepEqual([kept.status, kept.code], [400, 'type_has_objects']);
    assert.match(kept.message, /still has 1 Object\b.*delete them first/);
    const still = (await b.getObject({ slug: 'hello-again' })) as { object: V1Obj };
    assert.equal(still.object.slug, 'hello-again');
    await b.deleteObject({ slug: 'hello-again' });
    const gone = (await b.deleteObjectType({ slug: 'posts' })) as { message: string };
    assert.match(gone.message, /deleted/);
    assert.equal(((await b.getObjectsByType({ type_slug: 'posts' })) as ErrorBody).status, 404);
  });

  // Last: a client with a token sets it as every later request's Authorization header.
  it('with the write key as token: bodies over 16 KB, getWebhooks; addWebhook (v1 event), deleteWebhook', async () => {
    const big = { type_slug: 'authors', title: 'Big', content: 'x'.repeat(20 * 1024) };
    const unread = (await b.addObject({ ...big })) as ErrorBody;
    assert.equal(unread.status, 401);
    assert.match(unread.message, /a body is read only when its Content-Length is at most 16384 bytes/);
    const added = (await b.addWebhook({ event: 'object.edited.published', endpoint: 'https://example.com/hook' })) as {
      webhook: { id: string; events: string[] };
    };
    assert.deepEqual(added.webhook.events, ['object.edited', 'object.published']);
    const badEvent = (await b.addWebhook({ event: 'object.renamed', endpoint: 'https://example.com/x' })) as ErrorBody;
    assert.equal(badEvent.status, 400);
    assert.match(badEvent.message, /event must be one of object\.created\.draft/);
    assert.equal(((await b.getWebhooks()) as ErrorBody).status, 401);
    const withToken = Cosmic({ token: suite.keys.write_key ?? '' }).bucket({ slug: suite.keys.slug });
    assert.equal(((await withToken.addObject({ ...big })) as One).object.slug, 'big');
    const listed = (await withToken.getWebhooks()) as { webhooks: { id: string }[] };
    assert.deepEqual(
      listed.webhooks.map((w) => w.id),
      [added.webhook.id],
    );
    const del = (await b.deleteWebhook({ id: added.webhook.id })) as { message: string };
    assert.match(del.message, /deleted/);
    // The token sits on axios defaults every client of the process shares, until taken off.
    forgetCosmicV1Token();
    assert.equal(((await b.getWebhooks()) as ErrorBody).status, 401);
  });

  // Last: a client made with a token keeps it on every later request of the process's clients.
  it('authenticate, getBuckets, addUser, getUsers, getUser with an account token', async () => {
    await account(suite.harness, 'v1boss@example.com', suite.keys.slug);
    const auth = (await Cosmic().authenticate({ email: 'v1boss@example.com', password: PASSWORD })) as {
      token: string;
    };
    assert.match(auth.token, /\./);
    const api = Cosmic({ token: auth.token });
    const buckets = (await api.getBuckets()) as { buckets: { slug: string; role: string }[] };
    assert.deepEqual(
      buckets.buckets.map((x) => [x.slug, x.role]),
      [[suite.keys.slug, 'admin']],
    );
    const bucket = api.bucket({ slug: suite.keys.slug });
    const added = (await bucket.addUser({
      first_name: 'V',
      last_name: 'One',
      email: 'v1@example.com',
      role: 'developer',
    })) as {
      user: { id: string };
    };
    const users = (await bucket.getUsers()) as { users: { email: string }[]; total: number };
    assert.ok(users.users.some((u) => u.email === 'v1@example.com'));
    const one = (await bucket.getUser({ id: added.user.id })) as { user: { role: string } };
    assert.equal(one.user.role, 'developer');
  });
});
