import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { loadCosmicV2, type CosmicV2Bucket } from '../support/cosmic-v2.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { imageBytes } from '../support/media.js';

/** What the client rejects with: the error body the service answered. */
async function rejection(p: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await p;
  } catch (err) {
    return err as Record<string, unknown>;
  }
  throw new Error('expected the call to fail');
}

type Doc = Record<string, unknown> & { id: string };
const field = (body: Record<string, unknown>, key: string) => body[key] as Doc;

describe('Legacy v2: the cosmicjs 4.3.7 client, unchanged, against /v2', () => {
  let h: Harness;
  let server: http.Server;
  let bucket: CosmicV2Bucket;
  let keys: { slug: string; read_key?: string; write_key?: string };
  before(async () => {
    h = await freshHarness();
    server = http.createServer(h.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const issued = await h.bucket('legacy-v2');
    keys = { slug: issued.slug, read_key: issued.read_key ?? '', write_key: issued.write_key ?? '' };
    bucket = loadCosmicV2(`http://127.0.0.1:${String(port)}`)().bucket(keys);
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    assert.deepEqual(h.errors, []);
  });

  it('adds, reads, lists and edits Object types, wrapped as object_type / object_types', async () => {
    const added = await bucket.addObjectType({
      title: 'Posts',
      slug: 'posts',
      metafields: [
        { type: 'text', title: 'Subtitle', key: 'subtitle', value: '' },
        { type: 'number', title: 'Rank', key: 'rank', value: '' },
      ],
    });
    assert.equal(field(added, 'object_type').slug, 'posts');
    const all = await bucket.getObjectTypes();
    assert.deepEqual(
      (all.object_types as Doc[]).map((t) => t.slug),
      ['posts'],
    );
    const edited = await bucket.editObjectType({ slug: 'posts', singular: 'Post' });
    assert.equal(field(edited, 'object_type').singular, 'Post');
    assert.equal(field(await bucket.getObjectType({ slug: 'posts' }), 'object_type').singular, 'Post');
  });

  it('adds, reads, finds, edits and deletes Objects (both call styles)', async () => {
    const a = field(await bucket.addObject({ title: 'First', type: 'posts', metadata: { rank: 1 } }), 'object');
    const b = field(
      await bucket.objects.insertOne({ title: 'Second', type: 'posts', metadata: { rank: 2 } }),
      'object',
    );
    assert.deepEqual(a.metadata, { subtitle: '', rank: 1 });

    const listed = await bucket.getObjects({ query: { type: 'posts', 'metadata.rank': 2 }, props: 'id,title' });
    assert.deepEqual(listed.objects, [{ id: b.id, title: 'Second' }]);
    const shown = await bucket.getObjects({ query: { type: 'posts' }, show_metafields: true, limit: 1 });
    assert.deepEqual(Object.keys((shown.objects as Doc[])[0]?.metadata as object), ['subtitle', 'rank']);
    const found = await bucket.objects.find({ type: 'posts' }).props('id,slug').limit(1);
    assert.equal((found.objects as Doc[]).length, 1);
    assert.equal(found.total, 2);
    assert.equal(field(await bucket.getObject({ id: a.id, props: 'id,title' }), 'object').title, 'First');
    assert.equal(field(await bucket.objects.findOne({ id: b.id }), 'object').slug, 'second');

    assert.equal(field(await bucket.editObject({ id: a.id, title: 'First!' }), 'object').title, 'First!');
    const set = await bucket.objects.updateOne({ id: b.id }, { $set: { metadata: { subtitle: 'two' } } });
    assert.deepEqual(field(set, 'object').metadata, { subtitle: 'two', rank: 2 });

    assert.deepEqual(await bucket.objects.deleteOne({ id: b.id }), {
      message: `Object with id '${b.id}' deleted successfully from bucket.`,
    });
    const gone = await rejection(bucket.getObject({ id: b.id }));
    assert.equal(gone.status, 404);
    assert.match(String(gone.message), new RegExp(b.id));
  });

  it('reads and edits Metafields through the one Object write path', async () => {
    const o = field(await bucket.addObject({ title: 'Meta', type: 'posts' }), 'object');
    const before = await bucket.getObjectMetafields({ id: o.id });
    assert.deepEqual(
      (before.metafields as Doc[]).map((m) => [m.key, m.type, m.value]),
      [
        ['subtitle', 'text', ''],
        ['rank', 'number', null],
      ],
    );
    const many = await bucket.editObjectMetafields({
      id: o.id,
      metafields: [{ type: 'number', title: 'Rank', key: 'rank', value: 7 }],
    });
    assert.deepEqual(field(many, 'object').metadata, { subtitle: '', rank: 7 });
    const one = await bucket.editObjectMetafield({ id: o.id, key: 'subtitle', value: 'sub' });
    assert.deepEqual(field(one, 'object').metadata, { subtitle: 'sub', rank: 7 });
    // Validation is v3's: a number Metafield refuses text, naming the key.
    const bad = await rejection(bucket.editObjectMetafield({ id: o.id, key: 'rank', value: 'seven' }));
    assert.equal(bad.status, 400);
    assert.match(String(bad.message), /rank/);
  });

  it('adds a draft revision and lists revisions', async () => {
    const o = field(await bucket.addObject({ title: 'Rev', type: 'posts' }), 'object');
    const rev = await bucket.addObjectRevision({ id: o.id, type: 'posts', title: 'Rev 2' });
    assert.equal(field(rev, 'revision').status, 'draft');
    const list = await bucket.getObjectRevisions({ id: o.id });
    assert.ok((list.revisions as Doc[]).some((r) => r.title === 'Rev 2'));
    // The live Object is unchanged by a revision.
    assert.equal(field(await bucket.getObject({ id: o.id }), 'object').title, 'Rev');
  });

  it('uploads media on the upload host, lists, reads and deletes it', async () => {
    const png = await imageBytes(4, 3);
    const up = await bucket.addMedia({ media: { buffer: png, originalname: 'pic.png' }, folder: 'pics' });
    const m = field(up, 'media');
    assert.equal(m.original_name, 'pic.png');
    assert.equal(m.folder, 'pics');
    const second = field(await bucket.media.insertOne({ media: { buffer: png, originalname: 'two.png' } }), 'media');
    const listed = await bucket.getMedia({ query: { name: m.name }, props: 'id,name' });
    assert.deepEqual(listed.media, [{ id: m.id, name: m.name }]);
    assert.equal(((await bucket.media.find().limit(1)).media as Doc[]).length, 1);
    // v2's media sort values are not v3's: refused by name (README, "Where v2 differs").
    const sorted = await rejection(Promise.resolve(bucket.media.find().sort('created')));
    assert.equal(sorted.status, 400);
    assert.match(String(sorted.message), /created/);
    assert.equal(field(await bucket.getSingleMedia({ id: m.id }), 'media').size, png.length);
    assert.deepEqual(await bucket.deleteMedia({ id: m.id }), {
      message: `Media with id '${m.id}' deleted successfully from bucket.`,
    });
    await bucket.media.deleteOne({ id: second.id });
    assert.equal((await rejection(bucket.getSingleMedia({ id: m.id }))).status, 404);
  });

  it('answers merge-request Objects with 404: merge requests are not a resource here yet', async () => {
    const err = await rejection(bucket.getMergeRequestObjects({ id: 'mr1' }));
    assert.deepEqual(err, {
      status: 404,
      code: 'not_found',
      message: "Merge request with id 'mr1' not found in bucket",
    });
  });

  it('deletes an Object type together with its Objects (the v3 rule, see README)', async () => {
    await bucket.addObjectType({ title: 'Notes', slug: 'notes' });
    await bucket.addObject({ title: 'Note', type: 'notes' });
    await bucket.deleteObjectType({ slug: 'notes' });
    assert.equal((await rejection(bucket.getObjectType({ slug: 'notes' }))).status, 404);
    assert.equal((await rejection(bucket.getObjects({ query: { type: 'notes' } }))).status, 404);
  });

  it('manages webhooks at the v3 routes under /v2', async () => {
    const auth = `Bearer ${keys.write_key ?? ''}`;
    const made = await request(h.app)
      .post(`/v2/buckets/${keys.slug}/webhooks`)
      .set('Authorization', auth)
      .send({ endpoint: 'https://hooks.example.com/in', events: ['object.created'] })
      .expect(200);
    const id = (made.body as { webhook: Doc }).webhook.id;
    const list = await request(h.app).get(`/v2/buckets/${keys.slug}/webhooks`).set('Authorization', auth).expect(200);
    assert.deepEqual(
      (list.body as { webhooks: Doc[] }).webhooks.map((w) => w.id),
      [id],
    );
    await request(h.app).delete(`/v2/buckets/${keys.slug}/webhooks/${id}`).set('Authorization', auth).expect(200);
  });

  it('refuses v1 filter parameters on the v3 and v2 Object lists instead of answering every Object', async () => {
    for (const prefix of ['/v3', '/v2']) {
      const res = await request(h.app)
        .get(`${prefix}/buckets/${keys.slug}/objects?read_key=${keys.read_key ?? ''}&type=posts&metadata[rank]=1`)
        .expect(400);
      const message = (res.body as { message: string }).message;
      assert.match(message, /"type" is a v1 parameter .* query=\{"type":"posts"\}/);
      assert.match(message, /"metadata\[rank\]" is a v1 parameter .* query=\{"metadata\.rank":"1"\}/);
    }
  });

  it('answers an unknown /v2 path 404 with the error body (the 200 quirk is /v3 only)', async () => {
    const res = await request(h.app).get(`/v2/buckets/${keys.slug}/nothing-here`).expect(404);
    assert.equal((res.body as { status: number }).status, 404);
    assert.equal((res.body as { code: string }).code, 'route_not_found');
  });
});
