import assert from 'node:assert/strict';
import request from 'supertest';
import { ensureMediaIndexes, MEDIA_LIST_INDEXES } from '../../lib/store/media.js';
import { declareFolders, imageBytes, storedFileCounts, upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

const q = (filter: unknown) => encodeURIComponent(JSON.stringify(filter));

/** The fields of a media item these tests read; deepEqual still compares every field. */
interface MediaItem {
  id: string;
  name: string;
  original_name: string;
  size: number;
  created: string;
  modified_at: string;
  imgproc_url: string;
  [field: string]: unknown;
}

describe('Media API: list, get, update, delete', () => {
  /** Uploaded in this order; created_at increases with the index. */
  const items: MediaItem[] = [];
  /** items[i], asserting the upload in before() produced it. */
  const item = (i: number): MediaItem => {
    const m = items[i];
    assert.ok(m, `media item ${i} was uploaded`);
    return m;
  };
  const suite = new BucketSuite('library', async () => {
    await declareFolders(suite.harness.app, suite.keys, ['animals', 'docs', 'big', 'pets']);
    const png = await imageBytes(30, 20, 'png');
    const specs = [
      { file: png, filename: 'a-cat.png', folder: 'animals' },
      { file: Buffer.from('%PDF-1.7 report'), filename: 'report.pdf', folder: 'docs' },
      { file: png, filename: 'b-dog.png', folder: 'animals' },
      { file: Buffer.from('hello'), filename: 'notes.txt', folder: '' },
      { file: png, filename: 'c-bird.png', folder: 'animals' },
    ];
    for (const [i, s] of specs.entries()) {
      const res = await upload(suite.harness.app, suite.keys, s.file, {
        filename: s.filename,
        fields: { folder: s.folder, metadata: JSON.stringify({ rank: i, tag: i % 2 ? 'odd' : 'even' }) },
      }).expect(200);
      items.push(res.body.media);
      await new Promise((r) => setTimeout(r, 5));
    }
  });

  it('lists every item newest first with the total', async () => {
    const res = await suite.api.get('/media').expect(200);
    assert.equal(res.body.total, 5);
    assert.deepEqual(
      res.body.media.map((m: MediaItem) => m.id),
      items.map((m) => m.id).reverse(),
    );
    assert.deepEqual(res.body.media[0], item(4));
  });

  it('has the media indexes: names unique per Bucket, one list index per sort', async () => {
    const indexes = await suite.harness.db.collection('media').indexes();
    const unique = indexes.find((i) => i.name === 'bucket_name_unique');
    assert.ok(unique, 'the bucket_name_unique index exists');
    assert.deepEqual(unique.key, { bucket_id: 1, name: 1 });
    assert.equal(unique.unique, true);
    for (const declared of MEDIA_LIST_INDEXES) {
      assert.deepEqual(indexes.find((i) => i.name === declared.name)?.key, declared.key, declared.name);
    }
    assert.ok(!indexes.some((i) => i.name === 'bucket_created'), 'the superseded list index is gone');
    const stored = await suite.harness.db.collection('media').findOne({ name: item(0).name });
    assert.ok(stored);
    const { _id, ...dup } = stored;
    await assert.rejects(suite.harness.db.collection('media').insertOne(dup), /duplicate key|E11000/);
  });

  it('drops the superseded bucket_id, created_at index of an older database, and may run again', async () => {
    const media = suite.harness.db.collection('media');
    await media.createIndex({ bucket_id: 1, created_at: -1 }, { name: 'bucket_created' }, undefined);
    assert.equal(await media.indexExists('bucket_created'), true);
    await ensureMediaIndexes(suite.harness.db);
    await ensureMediaIndexes(suite.harness.db);
    assert.equal(await media.indexExists('bucket_created'), false);
    assert.equal(await media.indexExists(MEDIA_LIST_INDEXES.map((i) => i.name)), true);
  });

  it('requires the read key', async () => {
    const res = await request(suite.harness.app).get('/v3/buckets/library/media').expect(401);
    assert.equal(res.body.status, 401);
  });

  it('filters by name, id, folder, type, original_name, size, metadata and dates', async () => {
    const byName = await suite.api.get(`/media?limit=1&query=${q({ name: item(2).name })}`).expect(200);
    assert.deepEqual(
      byName.body.media.map((m: MediaItem) => m.id),
      [item(2).id],
    );
    const byId = await suite.api.get(`/media?query=${q({ id: item(1).id })}`).expect(200);
    assert.equal(byId.body.media[0].name, item(1).name);
    const animals = await suite.api.get(`/media?query=${q({ folder: 'animals', type: 'image/png' })}`).expect(200);
    assert.equal(animals.body.total, 3);
    // folder= is the same filter as a plain parameter, and narrows a query given beside it.
    const byParam = await suite.api.get('/media?folder=docs').expect(200);
    assert.deepEqual(
      byParam.body.media.map((m: MediaItem) => m.original_name),
      ['report.pdf'],
    );
    const both = await suite.api.get(`/media?folder=animals&query=${q({ 'metadata.rank': { $gte: 2 } })}`).expect(200);
    assert.deepEqual(both.body.media.map((m: MediaItem) => m.original_name).sort(), ['b-dog.png', 'c-bird.png']);
    const regex = await suite.api
      .get(`/media?query=${q({ original_name: { $regex: '^B-', $options: 'i' } })}`)
      .expect(200);
    assert.deepEqual(
      regex.body.media.map((m: MediaItem) => m.original_name),
      ['b-dog.png'],
    );
    const small = await suite.api.get(`/media?query=${q({ size: { $lt: 20 } })}`).expect(200);
    assert.deepEqual(small.body.media.map((m: MediaItem) => m.original_name).sort(), ['notes.txt', 'report.pdf']);
    const odd = await suite.api.get(`/media?query=${q({ 'metadata.tag': 'odd' })}`).expect(200);
    assert.equal(odd.body.total, 2);
    const later = await suite.api.get(`/media?query=${q({ created_at: { $gt: item(2).created } })}`).expect(200);
    assert.deepEqual(later.body.media.map((m: MediaItem) => m.id).sort(), [item(3).id, item(4).id].sort());
    const noFolder = await suite.api.get(`/media?query=${q({ folder: null })}`).expect(200);
    assert.deepEqual(
      noFolder.body.media.map((m: MediaItem) => m.original_name),
      ['notes.txt'],
    );
  });

  it('answers 404 when nothing matches and 400 naming the problem for a bad query', async () => {
    const none = await suite.api.get(`/media?query=${q({ name: 'nothing.png' })}`).expect(404);
    assert.equal(none.body.status, 404);
    const bad = await suite.api
      .get(`/media?query=${q({ title: 'x', size: 'big', id: 'nope', $where: '1' })}`)
      .expect(400);
    assert.match(bad.body.message, /unknown key "title"; queryable keys are id, name/);
    assert.match(bad.body.message, /"big" is not a number/);
    assert.match(bad.body.message, /not a valid Object id/);
    assert.match(bad.body.message, /unsupported operator "\$where"/);
    const malformed = await suite.api.get('/media?query=%7Bnot').expect(400);
    assert.match(malformed.body.message, /Malformed query/);
  });

  it('sorts by created_at, modified_at and random, and refuses other sorts', async () => {
    const asc = await suite.api.get('/media?sort=created_at').expect(200);
    assert.deepEqual(
      asc.body.media.map((m: MediaItem) => m.id),
      items.map((m) => m.id),
    );
    const modified = await suite.api.get('/media?sort=-modified_at').expect(200);
    assert.deepEqual(
      modified.body.media.map((m: MediaItem) => m.id),
      items.map((m) => m.id).reverse(),
    );
    const random = await suite.api.get('/media?sort=random&limit=3').expect(200);
    assert.equal(random.body.media.length, 3);
    assert.equal(random.body.total, 5);
    const bad = await suite.api.get('/media?sort=size').expect(400);
    assert.match(
      bad.body.message,
      /allowed values for media are created_at, -created_at, modified_at, -modified_at, random/,
    );
  });

  it('paginates with limit and skip, or after', async () => {
    const page1 = await suite.api.get('/media?sort=created_at&limit=2').expect(200);
    const page2 = await suite.api.get('/media?sort=created_at&limit=2&skip=2').expect(200);
    const page3 = await suite.api.get('/media?sort=created_at&limit=2&skip=4').expect(200);
    assert.deepEqual(
      [...page1.body.media, ...page2.body.media, ...page3.body.media].map((m: MediaItem) => m.id),
      items.map((m) => m.id),
    );
    assert.equal(page2.body.total, 5);
    const bad = await suite.api.get('/media?limit=0&skip=-1').expect(400);
    assert.match(bad.body.message, /limit must be/);
    assert.match(bad.body.message, /skip must be/);
    const rest = await suite.api.get(`/media?sort=created_at&limit=3&after=${item(1).id}`).expect(200);
    assert.deepEqual(
      rest.body.media.map((m: MediaItem) => m.id),
      items.slice(2).map((m) => m.id),
    );
  });

  it('narrows items to props', async () => {
    const res = await suite.api.get('/media?props=id,name,imgproc_url,metadata.rank&limit=1').expect(200);
    assert.deepEqual(res.body.media[0], {
      id: item(4).id,
      name: item(4).name,
      imgproc_url: item(4).imgproc_url,
      metadata: { rank: 4 },
    });
  });

  it('answers 413 when the list exceeds the response cap', async () => {
    const big = 'x'.repeat(200_000);
    const png = await imageBytes(4, 4);
    for (let i = 0; i < 32; i++)
      await upload(suite.harness.app, suite.keys, png, {
        filename: `big-${i}.png`,
        fields: { folder: 'big', metadata: JSON.stringify({ big }) },
      }).expect(200);
    const res = await suite.api.get(`/media?query=${q({ folder: 'big' })}`).expect(413);
    assert.match(res.body.message, /over the 6 MB limit/);
    const narrowed = await suite.api.get(`/media?props=id&query=${q({ folder: 'big' })}`).expect(200);
    assert.equal(narrowed.body.total, 32);
  });

  it('gets one item by id, 404 for an unknown or malformed id', async () => {
    const res = await suite.api.get(`/media/${item(1).id}`).expect(200);
    assert.deepEqual(res.body.media, item(1));
    const props = await suite.api.get(`/media/${item(1).id}?props=type`).expect(200);
    assert.deepEqual(props.body.media, { type: 'application/pdf' });
    const unknown = await suite.api.get('/media/aaaaaaaaaaaaaaaaaaaaaaaa').expect(404);
    assert.match(unknown.body.message, /Media with id 'aaaaaaaaaaaaaaaaaaaaaaaa' not found in bucket 'library'/);
    const malformed = await suite.api.get('/media/not-an-id').expect(404);
    assert.match(malformed.body.message, /not-an-id/);
  });

  it('updates folder, alt_text and metadata without touching the file, and shows the change at once', async () => {
    await suite.api.get(`/media/${item(0).id}`).expect(200);
    const res = await suite.api
      .patch(`/media/${item(0).id}`, { folder: 'pets', alt_text: 'A cat', metadata: { caption: 'Tom' } })
      .expect(200);
    const m = res.body.media;
    assert.equal(m.folder, 'pets');
    assert.equal(m.alt_text, 'A cat');
    assert.deepEqual(m.metadata, { caption: 'Tom' });
    assert.equal(m.name, item(0).name);
    assert.equal(m.size, item(0).size);
    assert.ok(m.modified_at > item(0).modified_at);
    const read = await suite.api.get(`/media/${item(0).id}`).expect(200);
    assert.equal(read.body.media.alt_text, 'A cat');
    await request(suite.harness.app)
      .get(`/files/library/${item(0).name}`)
      .expect(200);
  });

  it('refuses an empty patch, unknown fields, wrong types and a missing key', async () => {
    const empty = await suite.api.patch(`/media/${item(0).id}`, {}).expect(400);
    assert.match(empty.body.message, /at least one field/);
    const unknown = await suite.api.patch(`/media/${item(0).id}`, { name: 'x.png', size: 1 }).expect(400);
    assert.match(unknown.body.message, /unknown field "name"/);
    const types = await suite.api.patch(`/media/${item(0).id}`, { alt_text: 5, metadata: [] }).expect(400);
    assert.match(types.body.message, /alt_text must be a string/);
    assert.match(types.body.message, /metadata must be an object/);
    await request(suite.harness.app)
      .patch(`/v3/buckets/library/media/${item(0).id}`)
      .send({ alt_text: 'x' })
      .expect(401);
    await suite.api.patch('/media/aaaaaaaaaaaaaaaaaaaaaaaa', { alt_text: 'x' }).expect(404);
  });

  it('deletes an item: the record, its file and its processed images; both URLs then answer 404', async () => {
    const target = item(2);
    await request(suite.harness.app).get(`/imgproc/library/${target.name}?w=10`).expect(200);
    const before = await storedFileCounts(suite.harness.db);
    const res = await suite.api.delete(`/media/${target.id}?trigger_webhook=true`).expect(200);
    assert.deepEqual(res.body, { message: `Media with id '${target.id}' deleted successfully from bucket.` });
    const after = await storedFileCounts(suite.harness.db);
    assert.equal(after.files, before.files - 1);
    assert.equal(after.variants, before.variants - 1);
    const file = await request(suite.harness.app).get(`/files/library/${target.name}`).expect(404);
    assert.equal(file.body.status, 404);
    await request(suite.harness.app).get(`/imgproc/library/${target.name}?w=10`).expect(404);
    await suite.api.get(`/media/${target.id}`).expect(404);
    await suite.api.delete(`/media/${target.id}`).expect(404);
    const bad = await suite.api.delete(`/media/${item(3).id}?trigger_webhook=maybe`).expect(400);
    assert.match(bad.body.message, /trigger_webhook/);
  });

  it('deleting the Bucket removes its stored files and media folders', async () => {
    const { deleteBucket } = await import('../../lib/buckets/buckets.js');
    const other = await suite.harness.bucket('other');
    await declareFolders(suite.harness.app, other, ['kept']);
    await upload(suite.harness.app, other, Buffer.from('keep me'), { filename: 'keep.txt' }).expect(200);
    assert.equal(await suite.harness.db.collection('media_folders').countDocuments(), 5);
    await deleteBucket(suite.harness.db, 'library');
    const counts = await storedFileCounts(suite.harness.db);
    assert.deepEqual([counts.files, counts.variants], [1, 0]);
    assert.equal(await suite.harness.db.collection('media').countDocuments(), 1);
    assert.deepEqual(await suite.harness.db.collection('media_folders').distinct('slug'), ['kept']);
  });
});
