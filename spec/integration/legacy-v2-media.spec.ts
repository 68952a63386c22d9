import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { cosmicV2For, field, items, rejection, type CosmicV2Bucket, type V2Keys } from '../support/cosmic-v2.js';
import { imageBytes } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('Legacy v2: the cosmicjs 4.3.7 client, unchanged, against /v2 (media, merge requests, webhooks, errors)', () => {
  let bucket: CosmicV2Bucket;
  let keys: V2Keys;
  const read = () => `read_key=${keys.read_key ?? ''}`;
  const suite = new BucketSuite('legacy-v2-media', async () => {
    keys = { slug: suite.keys.slug, read_key: suite.keys.read_key ?? '', write_key: suite.keys.write_key ?? '' };
    bucket = (await cosmicV2For(suite.harness))().bucket(keys);
  });

  it('uploads media on the upload host with folder and metadata, lists, reads and deletes it', async () => {
    const small = await imageBytes(4, 3);
    const large = await imageBytes(40, 30);
    const up = await bucket.addMedia({
      media: { buffer: small, originalname: 'pic.png' },
      folder: 'pics',
      metadata: { caption: 'hi' },
      trigger_webhook: true,
    });
    const m = field(up, 'media');
    assert.deepEqual([m.original_name, m.folder, m.metadata], ['pic.png', 'pics', { caption: 'hi' }]);
    // The folder did not exist: the upload declared it, as a folder that lists and can be renamed.
    const folders = await request(suite.harness.app)
      .get(`/v3/buckets/${keys.slug}/media-folders?${read()}`)
      .expect(200);
    assert.deepEqual(
      (folders.body.folders as { slug: string; title: string; id: string | null }[]).map((f) => [
        f.slug,
        f.title,
        typeof f.id,
      ]),
      [['pics', 'pics', 'string']],
    );
    // The client's own examples upload a file stream as the buffer.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'v2-media-'));
    await fs.writeFile(path.join(dir, 'two.png'), large);
    const stream = createReadStream(path.join(dir, 'two.png'));
    const second = field(await bucket.media.insertOne({ media: { buffer: stream, originalname: 'two.png' } }), 'media');
    await fs.rm(dir, { recursive: true, force: true });
    assert.equal(second.size, large.length);

    const listed = await bucket.getMedia({ query: { name: m.name }, props: 'id,name' });
    assert.deepEqual(listed, { media: [{ id: m.id, name: m.name }], total: 1, limit: 1000 });
    assert.deepEqual((await bucket.getMedia({ limit: 1, skip: 1, props: 'id' })).media, [{ id: m.id }]);
    assert.deepEqual((await bucket.media.find().props('id').limit(1).skip(1)).media, [{ id: m.id }]);
    assert.deepEqual((await bucket.media.find({ folder: 'pics' }).props('id')).media, [{ id: m.id }]);
    assert.equal(
      field(await bucket.media.findOne({ id: second.id }).props('id,size').limit(2), 'media').size,
      large.length,
    );
    assert.equal(field(await bucket.getSingleMedia({ id: m.id, props: 'size' }), 'media').size, small.length);

    // Earlier requests' put-off clears first, or the next writer of their Objects emits their events again.
    await suite.harness.settled();
    suite.harness.emitted.length = 0;
    assert.deepEqual(await bucket.deleteMedia({ id: m.id, trigger_webhook: true }), {
      message: `Media with id '${m.id}' deleted successfully from bucket.`,
    });
    assert.deepEqual(
      suite.harness.emitted.map((e) => e.type),
      ['media.deleted'],
    );
    await bucket.media.deleteOne({ id: second.id });
    assert.equal((await rejection(bucket.getSingleMedia({ id: m.id }))).code, 'media_not_found');
    assert.equal((await rejection(bucket.getMedia())).code, 'no_match');
  });

  it("sorts media by v1/v2's created and size as well as v3's values; v3 keeps its own", async () => {
    const sizes = [await imageBytes(30, 30), await imageBytes(2, 2), await imageBytes(12, 12)];
    const ids: string[] = [];
    for (const [i, bytes] of sizes.entries()) {
      ids.push(
        field(await bucket.addMedia({ media: { buffer: bytes, originalname: `s${String(i)}.png` } }), 'media').id,
      );
    }
    const order = async (sort: string) =>
      items(await bucket.media.find().sort(sort).props('id'), 'media').map((m) => m.id);
    const bySize = [...ids].sort((x, y) => (sizes[ids.indexOf(x)]?.length ?? 0) - (sizes[ids.indexOf(y)]?.length ?? 0));
    assert.deepEqual(await order('size'), bySize);
    assert.deepEqual(await order('-size'), [...bySize].reverse());
    assert.deepEqual(await order('created'), ids);
    assert.deepEqual(await order('-created'), [...ids].reverse());
    assert.deepEqual(await order('created_at'), ids);
    assert.equal((await order('random')).length, 3);
    const bad = await rejection(bucket.media.find().sort('name'));
    assert.equal(bad.code, 'invalid_parameter');
    assert.match(String(bad.message), /allowed values for media are .*size, -size, created, -created/);
    const v3 = await request(suite.harness.app).get(`/v3/buckets/${keys.slug}/media?${read()}&sort=size`).expect(400);
    assert.match((v3.body as { message: string }).message, /Invalid sort "size"/);
    for (const id of ids) await bucket.deleteMedia({ id });
  });

  it('answers the Objects a merge request recorded (props, limit, skip), 404 for an unknown id, 400 for a filter', async () => {
    const v3 = (path: string, body: object) =>
      request(suite.harness.app)
        .post(`/v3/buckets/${keys.slug}${path}`)
        .set('Authorization', `Bearer ${keys.write_key ?? ''}`)
        .send(body)
        .expect(200);
    await v3('/object-types', { title: 'Pages' });
    const ids: string[] = [];
    for (const title of ['One', 'Two']) {
      const made = await v3('/objects', { title, type: 'pages' });
      const id = (made.body as { object: { id: string } }).object.id;
      await v3(`/objects/${id}/revisions`, { title: `${title} draft` });
      ids.push(id);
    }
    const mr = (await v3('/merge-requests', { title: 'Pages', object_ids: ids })).body as {
      merge_request: { id: string };
    };
    const mrId = mr.merge_request.id;
    const all = await bucket.getMergeRequestObjects({ id: mrId, props: 'id,title,status' });
    assert.deepEqual(all, {
      objects: [
        { id: ids[0], title: 'One draft', status: 'draft' },
        { id: ids[1], title: 'Two draft', status: 'draft' },
      ],
      total: 2,
    });
    const second = await bucket.getMergeRequestObjects({ id: mrId, limit: 1, skip: 1 });
    const [recorded] = items(second, 'objects');
    assert.ok(recorded);
    assert.equal(recorded.id, ids[1]);
    assert.equal(recorded.type, 'pages');
    assert.match(String(recorded.revision_id), /^[0-9a-f]{24}$/);
    const filtered = await rejection(bucket.getMergeRequestObjects({ id: mrId, sort: '-created_at' }));
    assert.equal(filtered.status, 400);
    assert.match(String(filtered.message), /sort is not supported on merge-request Objects/);
    const err = await rejection(bucket.getMergeRequestObjects({ id: 'mr1', limit: 10 }));
    assert.deepEqual(err, {
      status: 404,
      code: 'not_found',
      message: `Merge request with id 'mr1' not found in bucket '${keys.slug}'`,
    });
    const unkeyed = await request(suite.harness.app)
      .get(`/v2/buckets/${keys.slug}/merge-requests/mr1/objects`)
      .expect(401);
    assert.equal((unkeyed.body as { code: string }).code, 'unauthorized');
  });

  it('manages webhooks at the v3 routes under /v2', async () => {
    const auth = `Bearer ${keys.write_key ?? ''}`;
    const base = `/v2/buckets/${keys.slug}/webhooks`;
    const made = await request(suite.harness.app)
      .post(base)
      .set('Authorization', auth)
      .send({ endpoint: 'https://hooks.example.com/in', events: ['object.created'] })
      .expect(200);
    const id = (made.body as { webhook: { id: string } }).webhook.id;
    const list = await request(suite.harness.app).get(base).set('Authorization', auth).expect(200);
    assert.deepEqual(
      (list.body as { webhooks: { id: string }[] }).webhooks.map((w) => w.id),
      [id],
    );
    await request(suite.harness.app).delete(`${base}/${id}`).set('Authorization', auth).expect(200);
    await request(suite.harness.app).get(`${base}/${id}`).set('Authorization', auth).expect(404);
  });

  it('answers every failure with the error body: a wrong key, bad parameters, an unknown path', async () => {
    const wrong = (await cosmicV2For(suite.harness))().bucket({ ...keys, read_key: 'nope', write_key: 'nope' });
    for (const failed of [
      await rejection(wrong.getObjects()),
      await rejection(wrong.addObject({ title: 'x', type: 'posts' })),
      await rejection(wrong.getMedia()),
    ]) {
      assert.equal(failed.status, 401);
      assert.equal(failed.code, 'unauthorized');
      assert.equal(typeof failed.message, 'string');
    }
    assert.equal((await rejection(bucket.objects.find().limit(0))).code, 'invalid_parameter');
    for (const [method, path] of [
      ['get', `/v2/buckets/${keys.slug}/nothing-here`],
      ['put', `/v2/buckets/${keys.slug}/objects`],
      ['get', '/v2'],
    ] as const) {
      const res = await request(suite.harness.app)[method](path).expect(404);
      assert.deepEqual(Object.keys(res.body as object).sort(), ['code', 'message', 'status']);
      assert.equal((res.body as { code: string }).code, 'route_not_found');
    }
  });

  it('refuses v1 filter parameters on the v3 and v2 Object lists; the advised v3 form works', async () => {
    await bucket.addObjectType({
      title: 'Posts',
      slug: 'posts',
      metafields: [{ type: 'number', title: 'Rank', key: 'rank', value: '' }],
    });
    const o = field(await bucket.addObject({ title: 'Hello (world)', type: 'posts', metadata: { rank: 1 } }), 'object');
    for (const prefix of ['/v3', '/v2']) {
      const res = await request(suite.harness.app)
        .get(`${prefix}/buckets/${keys.slug}/objects?${read()}&type=posts&metadata[rank]=1&q=(world)`)
        .expect(400);
      const message = (res.body as { message: string; code: string }).message;
      assert.equal((res.body as { code: string }).code, 'invalid_parameter');
      assert.match(message, /"type" is a v1 parameter .* query=\{"type":"posts"\}/);
      assert.match(message, /"metadata\[rank\]" is a v1 parameter .* query=\{"metadata\.rank":"1"\}/);
      // The advice is a v3 query that runs as it is.
      const advised = /"q" is a v1 parameter this API does not take; in v3 use query=(\{.*\}\]\})/.exec(message)?.[1];
      assert.ok(advised, message);
      const ran = await request(suite.harness.app)
        .get(`/v3/buckets/${keys.slug}/objects?${read()}&props=id&query=${encodeURIComponent(advised)}`)
        .expect(200);
      assert.deepEqual((ran.body as { objects: unknown }).objects, [{ id: o.id }]);
    }
  });
});
