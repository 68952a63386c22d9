import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import request from 'supertest';
import { declareFolders, eventually, imageBytes, randomishBytes, storedFileCounts, upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('Media upload', () => {
  const suite = new BucketSuite(
    'uploads',
    async () => {
      await declareFolders(suite.harness.app, suite.keys, ['trips', 'x']);
    },
    { UPLOAD_URL: 'http://upload.test' },
  );

  it('stores an image and answers every field of a media item', async () => {
    const png = await imageBytes(64, 48, 'png');
    const res = await upload(suite.harness.app, suite.keys, png, {
      filename: 'Holiday Photo!.PNG',
      contentType: 'image/png',
      fields: { folder: 'trips', metadata: JSON.stringify({ caption: 'Sea', credit: 'Ann' }), trigger_webhook: 'true' },
    }).expect(200);
    const m = res.body.media;
    assert.match(m.id, /^[0-9a-f]{24}$/);
    assert.match(m.name, /^[0-9a-f]{16}-holiday-photo\.png$/);
    assert.equal(m.original_name, 'Holiday Photo!.PNG');
    assert.equal(m.size, png.length);
    assert.equal(m.type, 'image/png');
    const bucket = await suite.harness.db.collection('buckets').findOne({ slug: 'uploads' });
    assert.equal(m.bucket, bucket!._id.toHexString());
    assert.match(m.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(m.location, 'http://upload.test/files/uploads');
    assert.equal(m.folder, 'trips');
    assert.equal(m.url, `http://api.test/files/uploads/${m.name}`);
    assert.equal(m.imgproc_url, `http://api.test/imgproc/uploads/${m.name}`);
    assert.equal(m.alt_text, '');
    assert.deepEqual(m.metadata, { caption: 'Sea', credit: 'Ann' });
    assert.equal(m.width, 64);
    assert.equal(m.height, 48);
    const file = await request(suite.harness.app).get(`/files/uploads/${m.name}`).expect(200);
    assert.ok(Buffer.compare(file.body as Buffer, png) === 0);
  });

  it('streams a multi-megabyte file into chunked storage and serves the same bytes back', async () => {
    const bytes = randomishBytes(5 * 1024 * 1024 + 123, 7);
    const res = await upload(suite.harness.app, suite.keys, bytes, { filename: 'blob.dat' }).expect(200);
    const m = res.body.media;
    assert.equal(m.size, bytes.length);
    assert.equal(m.type, 'application/octet-stream');
    assert.equal(m.folder, null);
    assert.equal(m.width, undefined);
    const doc = await suite.harness.db.collection('media').findOne({ _id: new ObjectId(m.id) });
    const chunks = await suite.harness.db.collection('media_files.chunks').countDocuments({ files_id: doc!.file_id });
    assert.ok(chunks > 10, `expected the file in many chunks, got ${chunks}`);
    const file = await request(suite.harness.app)
      .get(`/files/uploads/${m.name}`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    assert.ok(Buffer.compare(file.body as Buffer, bytes) === 0);
  });

  it('records the type the bytes prove, not the one the client claims', async () => {
    const jpeg = await imageBytes(20, 10, 'jpeg');
    const res = await upload(suite.harness.app, suite.keys, jpeg, {
      filename: 'really-a-jpeg.txt',
      contentType: 'text/plain',
    }).expect(200);
    assert.equal(res.body.media.type, 'image/jpeg');
    assert.equal(res.body.media.width, 20);
    const csv = await upload(suite.harness.app, suite.keys, Buffer.from('a,b\n1,2\n'), {
      filename: 'data.csv',
      contentType: 'application/octet-stream',
    }).expect(200);
    assert.equal(csv.body.media.type, 'text/csv');
    assert.match(csv.body.media.name, /-data\.csv$/);
  });

  it('accepts the write key as the form field write_key instead of the header', async () => {
    const res = await upload(suite.harness.app, suite.keys, Buffer.from('%PDF-1.4 x'), {
      filename: 'doc.pdf',
      header: false,
      fields: { write_key: suite.keys.write_key! },
    }).expect(200);
    assert.equal(res.body.media.type, 'application/pdf');
  });

  it('refuses a missing or wrong key with 401 and keeps nothing', async () => {
    const before = await storedFileCounts(suite.harness.db);
    const mediaBefore = await suite.harness.db.collection('media').countDocuments();
    const none = await upload(suite.harness.app, suite.keys, randomishBytes(300_000), { header: false }).expect(401);
    assert.equal(none.body.status, 401);
    const wrongField = await upload(suite.harness.app, suite.keys, randomishBytes(300_000), {
      header: false,
      fields: { write_key: 'nope' },
    }).expect(401);
    assert.match(wrongField.body.message, /write access key/);
    const wrongHeader = await request(suite.harness.app)
      .post('/v3/buckets/uploads/media')
      .set('Authorization', 'Bearer nope')
      .attach('media', randomishBytes(1000), 'x.bin')
      .expect(401);
    assert.equal(wrongHeader.body.status, 401);
    // Files stored before their key was seen are removed in the background, right after the answer.
    assert.ok(await eventually(async () => (await storedFileCounts(suite.harness.db)).chunks === before.chunks));
    assert.deepEqual(await storedFileCounts(suite.harness.db), before);
    assert.equal(await suite.harness.db.collection('media').countDocuments(), mediaBefore);
  });

  it('answers 400 naming the problem for bad form fields, and keeps no file', async () => {
    const before = await storedFileCounts(suite.harness.db);
    const bad = await upload(suite.harness.app, suite.keys, Buffer.from('x'), {
      fields: { metadata: '{not json', trigger_webhook: 'maybe', colour: 'red' },
    }).expect(400);
    assert.match(bad.body.message, /metadata must be a JSON object/);
    assert.match(bad.body.message, /trigger_webhook must be "true" or "false"/);
    assert.match(bad.body.message, /unknown form field\(s\) "colour"/);
    const array = await upload(suite.harness.app, suite.keys, Buffer.from('x'), {
      fields: { metadata: '[1,2]' },
    }).expect(400);
    assert.match(array.body.message, /metadata must be a JSON object/);
    const dollar = await upload(suite.harness.app, suite.keys, Buffer.from('x'), {
      fields: { metadata: '{"$set": 1}' },
    }).expect(400);
    assert.match(dollar.body.message, /may not start with "\$"/);
    assert.ok(await eventually(async () => (await storedFileCounts(suite.harness.db)).chunks === before.chunks));
    assert.deepEqual(await storedFileCounts(suite.harness.db), before);
  });

  it('answers 400 when the form has no file or the file is in another field, 415 for a non-multipart body', async () => {
    const noFile = await request(suite.harness.app)
      .post('/v3/buckets/uploads/media')
      .set('Authorization', `Bearer ${suite.keys.write_key}`)
      .field('folder', 'x')
      .expect(400);
    assert.match(noFile.body.message, /no file/);
    const otherField = await request(suite.harness.app)
      .post('/v3/buckets/uploads/media')
      .set('Authorization', `Bearer ${suite.keys.write_key}`)
      .attach('file', Buffer.from('x'), 'a.txt')
      .expect(400);
    assert.match(otherField.body.message, /Unexpected file field "file"/);
    const json = await request(suite.harness.app)
      .post('/v3/buckets/uploads/media')
      .set('Authorization', `Bearer ${suite.keys.write_key}`)
      .send({ media: 'x' })
      .expect(415);
    assert.match(json.body.message, /multipart\/form-data/);
  });

  it('answers 400 for a malformed multipart body', async () => {
    const res = await request(suite.harness.app)
      .post('/v3/buckets/uploads/media')
      .set('Authorization', `Bearer ${suite.keys.write_key}`)
      .set('Content-Type', 'multipart/form-data; boundary=XYZ')
      .send('--XYZ\r\nContent-Disposition: form-data; name="media"; filename="a.txt"\r\n\r\nunterminated')
      .expect(400);
    assert.match(res.body.message, /multipart/);
  });

  it('answers 404 for an unknown Bucket', async () => {
    const res = await request(suite.harness.app)
      .post('/v3/buckets/nowhere/media')
      .attach('media', Buffer.from('x'), 'a.txt')
      .expect(404);
    assert.match(res.body.message, /nowhere/);
  });

  it('serves the legacy upload address POST /v1/:slug/media with the same answer', async () => {
    const res = await request(suite.harness.app)
      .post('/v1/uploads/media')
      .field('write_key', suite.keys.write_key!)
      .attach('media', await imageBytes(8, 8, 'gif'), { filename: 'tiny.gif', contentType: 'image/gif' })
      .expect(200);
    assert.equal(res.body.media.type, 'image/gif');
    assert.deepEqual([res.body.media.width, res.body.media.height], [8, 8]);
  });

  it('stores an empty file', async () => {
    const res = await upload(suite.harness.app, suite.keys, Buffer.alloc(0), {
      filename: 'empty.txt',
      contentType: 'text/plain',
    }).expect(200);
    assert.equal(res.body.media.size, 0);
    const file = await request(suite.harness.app).get(`/files/uploads/${res.body.media.name}`).expect(200);
    assert.equal(file.headers['content-length'], '0');
  });
});

/** Collects a binary body whatever its Content-Type (supertest's parser hook hands over the raw response). */
function binary(res: unknown, done: (err: Error | null, body: Buffer) => void): void {
  const stream = res as NodeJS.ReadableStream;
  const parts: Buffer[] = [];
  stream.on('data', (c: Buffer) => parts.push(c));
  stream.on('end', () => {
    done(null, Buffer.concat(parts));
  });
}
