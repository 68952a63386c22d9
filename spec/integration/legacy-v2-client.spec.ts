import assert from 'node:assert/strict';
import request from 'supertest';
import { cosmicV2For, field, items, rejection, type CosmicV2Bucket, type V2Keys } from '../support/cosmic-v2.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('Legacy v2: the cosmicjs 4.3.7 client, unchanged, against /v2 (Object types, Objects, Metafields)', () => {
  let bucket: CosmicV2Bucket;
  let keys: V2Keys;
  const posts = [
    { type: 'text', title: 'Subtitle', key: 'subtitle', value: '' },
    { type: 'number', title: 'Rank', key: 'rank', value: '' },
  ];
  const suite = new BucketSuite('legacy-v2', async () => {
    keys = { slug: suite.keys.slug, read_key: suite.keys.read_key ?? '', write_key: suite.keys.write_key ?? '' };
    bucket = (await cosmicV2For(suite.harness))().bucket(keys);
  });

  it('adds, reads, lists and edits Object types, wrapped as object_type / object_types', async () => {
    const added = await bucket.addObjectType({ title: 'Posts', slug: 'posts', metafields: posts });
    assert.equal(field(added, 'object_type').slug, 'posts');
    assert.deepEqual(
      items(await bucket.getObjectTypes(), 'object_types').map((t) => t.slug),
      ['posts'],
    );
    const edited = await bucket.editObjectType({ slug: 'posts', singular: 'Post', metafields: posts });
    assert.equal(field(edited, 'object_type').singular, 'Post');
    assert.equal(field(await bucket.getObjectType({ slug: 'posts' }), 'object_type').singular, 'Post');
    const missing = await rejection(bucket.getObjectType({ slug: 'nope' }));
    assert.deepEqual(Object.keys(missing).sort(), ['code', 'message', 'status']);
    assert.equal(missing.code, 'object_type_not_found');
  });

  it('adds, reads, finds, edits and deletes Objects in both call styles', async () => {
    // v2 writes content as a metafields array (the client's own examples do), v3 as metadata: both are taken.
    const a = field(
      await bucket.addObject({
        title: 'First',
        type: 'posts',
        metafields: [{ type: 'number', title: 'Rank', key: 'rank', value: 1 }],
      }),
      'object',
    );
    const b = field(
      await bucket.objects.insertOne({ title: 'Second', type: 'posts', metadata: { rank: 2 } }),
      'object',
    );
    assert.deepEqual(a.metadata, { subtitle: '', rank: 1 });

    const listed = await bucket.getObjects({ query: { type: 'posts', 'metadata.rank': 2 }, props: 'id,title' });
    assert.deepEqual(listed.objects, [{ id: b.id, title: 'Second' }]);
    const paged = await bucket.getObjects({
      query: { type: 'posts' },
      sort: 'created_at',
      limit: 1,
      skip: 1,
      status: 'any',
      props: 'title',
      use_cache: false,
      pretty: true,
    });
    assert.deepEqual(paged, { objects: [{ title: 'Second' }], total: 2 });
    const next = await bucket.getObjects({ query: { type: 'posts' }, sort: 'created_at', after: a.id, props: 'id' });
    assert.deepEqual(next.objects, [{ id: b.id }]);

    const found = await bucket.objects.find({ type: 'posts' }).props('id,slug').sort('-created_at').limit(1);
    assert.deepEqual(found, { objects: [{ id: b.id, slug: 'second' }], total: 2 });
    const chained = await bucket.objects
      .find({ type: 'posts' })
      .sort('created_at')
      .skip(1)
      .status('any')
      .depth(1)
      .useCache(false)
      .props('title');
    assert.deepEqual(chained.objects, [{ title: 'Second' }]);
    const after = await bucket.objects.find({ type: 'posts' }).sort('created_at').after(a.id).props('id');
    assert.deepEqual(after.objects, [{ id: b.id }]);

    assert.equal(
      field(await bucket.getObject({ id: a.id, props: 'id,title', use_cache: false }), 'object').title,
      'First',
    );
    assert.equal(field(await bucket.getObject({ id: a.id, status: 'any' }), 'object').status, 'published');
    assert.equal(field(await bucket.objects.findOne({ id: b.id }).props('slug'), 'object').slug, 'second');

    const edited = field(
      await bucket.editObject({ id: a.id, title: 'First!', metafields: [{ key: 'subtitle', value: 'one' }] }),
      'object',
    );
    assert.deepEqual([edited.title, edited.metadata], ['First!', { subtitle: 'one', rank: 1 }]);
    const both = await rejection(bucket.addObject({ title: 'X', type: 'posts', metadata: {}, metafields: [] }));
    assert.equal(both.code, 'invalid_body');
    // Only content is translated: other fields v3 does not take are refused by name, as in v3.
    const extra = await rejection(bucket.addObject({ title: 'X', type: 'posts', options: { slug_field: false } }));
    assert.equal(extra.code, 'invalid_body');
    assert.match(String(extra.message), /options/);
    const set = await bucket.objects.updateOne({ id: b.id }, { $set: { metadata: { subtitle: 'two' } } });
    assert.deepEqual(field(set, 'object').metadata, { subtitle: 'two', rank: 2 });

    // Earlier requests' put-off clears first, or the next writer of their Objects emits their events again.
    await suite.harness.settled();
    suite.harness.emitted.length = 0;
    assert.deepEqual(await bucket.objects.deleteOne({ id: b.id, trigger_webhook: true }), {
      message: `Object with id '${b.id}' deleted successfully from bucket.`,
    });
    assert.deepEqual(
      suite.harness.emitted.map((e) => [e.type, e.subjectId]),
      [['object.deleted', b.id]],
    );
    assert.deepEqual(await bucket.deleteObject({ id: a.id }), {
      message: `Object with id '${a.id}' deleted successfully from bucket.`,
    });
    const gone = await rejection(bucket.getObject({ id: b.id }));
    assert.equal(gone.status, 404);
    assert.equal(gone.code, 'object_not_found');
    assert.equal((await rejection(bucket.objects.find({ type: 'posts' }))).code, 'no_match');
  });

  it('adds the metafields array with show_metafields=true, on lists and single Objects', async () => {
    const o = field(await bucket.addObject({ title: 'Shown', type: 'posts', metadata: { rank: 3 } }), 'object');
    const expected = [
      { ...posts[0], value: '' },
      { ...posts[1], value: 3 },
    ];
    const listed = items(await bucket.getObjects({ query: { type: 'posts' }, show_metafields: true }), 'objects');
    assert.deepEqual(listed[0]?.metafields, expected);
    assert.deepEqual(listed[0].metadata, { subtitle: '', rank: 3 });
    const chained = items(await bucket.objects.find({ type: 'posts' }).showMetafields(true), 'objects');
    assert.deepEqual(chained[0]?.metafields, expected);
    const one = await request(suite.harness.app)
      .get(`/v2/buckets/${keys.slug}/objects/${o.id}?read_key=${keys.read_key ?? ''}&show_metafields=true`)
      .expect(200);
    assert.deepEqual((one.body as { object: { metafields: unknown } }).object.metafields, expected);
    // Hidden by default, and with props only the listed properties answer.
    assert.equal(field(await bucket.getObject({ id: o.id }), 'object').metafields, undefined);
    const narrowed = await bucket.getObjects({ query: { type: 'posts' }, show_metafields: true, props: 'id' });
    assert.deepEqual(narrowed.objects, [{ id: o.id }]);
    // v3 keeps its shape: the parameter is not one of its own.
    const v3 = await request(suite.harness.app)
      .get(`/v3/buckets/${keys.slug}/objects/${o.id}?read_key=${keys.read_key ?? ''}&show_metafields=true`)
      .expect(200);
    assert.equal((v3.body as { object: { metafields?: unknown } }).object.metafields, undefined);
    await bucket.deleteObject({ id: o.id });
  });

  it('reads and edits Metafields through the one Object write path', async () => {
    const o = field(await bucket.addObject({ title: 'Meta', type: 'posts' }), 'object');
    const before = await bucket.getObjectMetafields({ id: o.id });
    assert.equal(before.total, 2);
    assert.deepEqual(
      items(before, 'metafields').map((m) => [m.key, m.type, m.value]),
      [
        ['subtitle', 'text', ''],
        ['rank', 'number', null],
      ],
    );
    const many = await bucket.editObjectMetafields({
      id: o.id,
      metafields: [{ type: 'number', title: 'Rank', key: 'rank', value: 7 }],
    });
    assert.deepEqual(many, {
      metafields: [
        { ...posts[0], value: '' },
        { ...posts[1], value: 7 },
      ],
      total: 2,
    });
    const one = await bucket.editObjectMetafield({ id: o.id, key: 'subtitle', value: 'sub' });
    assert.deepEqual(one, { metafield: { ...posts[0], value: 'sub' } });
    assert.deepEqual(field(await bucket.getObject({ id: o.id }), 'object').metadata, { subtitle: 'sub', rank: 7 });
    const byKey = await request(suite.harness.app)
      .get(`/v2/buckets/${keys.slug}/objects/${o.id}/metafields/rank?read_key=${keys.read_key ?? ''}`)
      .expect(200);
    assert.deepEqual(byKey.body, { metafield: { ...posts[1], value: 7 } });
    const noKey = await request(suite.harness.app)
      .get(`/v2/buckets/${keys.slug}/objects/${o.id}/metafields/nope?read_key=${keys.read_key ?? ''}`)
      .expect(404);
    assert.equal((noKey.body as { code: string }).code, 'not_found');
    // Validation is v3's: a number Metafield refuses text, naming the key; nothing changes.
    const bad = await rejection(bucket.editObjectMetafield({ id: o.id, key: 'rank', value: 'seven' }));
    assert.equal(bad.status, 400);
    assert.match(String(bad.message), /rank/);
    assert.equal((await rejection(bucket.editObjectMetafields({ id: o.id, metafields: [] }))).code, 'invalid_body');
    // A key the type lacks adds an Object's own Metafield only with a whole definition.
    const undefinedKey = await rejection(bucket.editObjectMetafield({ id: o.id, key: 'nope', value: 1 }));
    assert.equal(undefinedKey.status, 400);
    assert.match(String(undefinedKey.message), /metafields\[0\].*(type|title)/);
    assert.deepEqual(field(await bucket.getObject({ id: o.id }), 'object').metadata, { subtitle: 'sub', rank: 7 });
  });

  it("adds an Object with a Metafield its type lacks and edits the Object's own Metafields", async () => {
    const mood = { type: 'text', title: 'Mood', key: 'mood', value: 'calm' };
    const o = field(await bucket.addObject({ title: 'Own', type: 'posts', metafields: [mood] }), 'object');
    assert.equal((o.metadata as Record<string, unknown>).mood, 'calm');
    const score = { type: 'number', title: 'Score', key: 'score', value: 2 };
    const many = await bucket.editObjectMetafields({ id: o.id, metafields: [score] });
    assert.deepEqual(
      items(many, 'metafields').map((m) => [m.key, m.value]),
      [
        ['subtitle', ''],
        ['rank', null],
        ['mood', 'calm'],
        ['score', 2],
      ],
    );
    const one = await bucket.editObjectMetafield({ id: o.id, key: 'score', value: 3 });
    assert.deepEqual(one, { metafield: { ...score, value: 3 } });
    await bucket.deleteObject({ id: o.id });
  });

  it('adds a draft revision and lists revisions', async () => {
    const o = field(await bucket.addObject({ title: 'Rev', type: 'posts' }), 'object');
    const rev = await bucket.addObjectRevision({
      id: o.id,
      type: 'posts',
      title: 'Rev 2',
      metafields: [{ type: 'text', title: 'Subtitle', key: 'subtitle', value: 'draft sub' }],
    });
    assert.equal(field(rev, 'revision').status, 'draft');
    assert.equal((field(rev, 'revision').metadata as { subtitle: string }).subtitle, 'draft sub');
    const list = await bucket.getObjectRevisions({ id: o.id, limit: 1, props: 'title' });
    assert.deepEqual(list.revisions, [{ title: 'Rev 2' }]);
    assert.equal(list.total, 2);
    // The live Object is unchanged by a revision; status=any shows the draft.
    assert.equal(field(await bucket.getObject({ id: o.id }), 'object').title, 'Rev');
    assert.equal(field(await bucket.getObject({ id: o.id, status: 'any' }), 'object').title, 'Rev 2');
  });

  it('deletes an empty Object type, and refuses one that still has Objects, keeping them', async () => {
    await bucket.addObjectType({ title: 'Notes', slug: 'notes' });
    const note = field(await bucket.addObject({ title: 'Note', type: 'notes' }), 'object');
    const refused = await rejection(bucket.deleteObjectType({ slug: 'notes' }));
    assert.equal(refused.status, 400);
    assert.equal(refused.code, 'type_has_objects');
    assert.match(
      String(refused.message),
      /'notes' still has 1 Object\b.*DELETE \/v3\/buckets\/legacy-v2\/object-types\/notes/,
    );
    assert.equal(field(await bucket.getObject({ id: note.id }), 'object').title, 'Note');
    assert.equal(field(await bucket.getObjectType({ slug: 'notes' }), 'object_type').slug, 'notes');

    await bucket.deleteObject({ id: note.id });
    assert.deepEqual(await bucket.deleteObjectType({ slug: 'notes' }), {
      message: "Object Type with slug 'notes' deleted successfully from bucket.",
    });
    assert.equal((await rejection(bucket.getObjectType({ slug: 'notes' }))).status, 404);
  });

  it('reads a Bucket without a read key though the client sends read_key=undefined', async () => {
    const open = await suite.harness.bucket('legacy-v2-open', { kind: 'none' });
    const client = (await cosmicV2For(suite.harness))().bucket({ slug: open.slug, write_key: open.write_key ?? '' });
    await client.addObjectType({ title: 'Pages', slug: 'pages' });
    assert.deepEqual(
      items(await client.getObjectTypes(), 'object_types').map((t) => t.slug),
      ['pages'],
    );
  });
});
