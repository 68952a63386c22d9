import assert from 'node:assert/strict';
import sharp from 'sharp';
import request from 'supertest';
import { type Harness } from '../support/harness.js';
import { imageBytes, randomishBytes, upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

/** Supertest parser hook that keeps any body as raw bytes. */
function binary(res: unknown, done: (err: Error | null, body: Buffer) => void): void {
  const stream = res as NodeJS.ReadableStream;
  const parts: Buffer[] = [];
  stream.on('data', (c: Buffer) => parts.push(c));
  stream.on('end', () => {
    done(null, Buffer.concat(parts));
  });
}

/** The text of a bodiless answer: superagent leaves `text` undefined for HEAD, though its type says string. */
const textOf = (res: { text?: string }): string => res.text ?? '';

const get = (app: Harness['app'], path: string) => request(app).get(path).buffer(true).parse(binary);

describe('Serving media: /files and /imgproc', () => {
  let photo: { name: string; bytes: Buffer };
  let blob: { name: string; bytes: Buffer };
  const suite = new BucketSuite('serve', async () => {
    const png = await imageBytes(400, 300, 'png');
    photo = {
      name: (await upload(suite.harness.app, suite.keys, png, { filename: 'photo.png' }).expect(200)).body.media.name,
      bytes: png,
    };
    const bytes = randomishBytes(1_000_000, 3);
    blob = {
      name: (await upload(suite.harness.app, suite.keys, bytes, { filename: 'data.bin' }).expect(200)).body.media.name,
      bytes,
    };
  });

  it('serves the original bytes with type, length, ETag and caching that revalidates after 5 minutes', async () => {
    const res = await get(suite.harness.app, `/files/serve/${blob.name}`).expect(200);
    assert.ok(Buffer.compare(res.body as Buffer, blob.bytes) === 0);
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.equal(res.headers['content-length'], String(blob.bytes.length));
    assert.match(res.headers.etag ?? '', /^"[0-9a-f]{24}"$/);
    assert.equal(res.headers['accept-ranges'], 'bytes');
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await request(suite.harness.app).head(`/files/serve/${blob.name}`).expect(200);
    assert.equal(res.headers['content-length'], String(blob.bytes.length));
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.equal(textOf(res), '');
  });

  it('answers 304 when If-None-Match names the current ETag', async () => {
    const first = await get(suite.harness.app, `/files/serve/${blob.name}`).expect(200);
    const etag = first.headers.etag;
    assert.ok(etag, 'the first answer has an ETag');
    const again = await request(suite.harness.app)
      .get(`/files/serve/${blob.name}`)
      .set('If-None-Match', etag)
      .expect(304);
    assert.equal(textOf(again), '');
    await get(suite.harness.app, `/files/serve/${blob.name}`).set('If-None-Match', '"something-else"').expect(200);
  });

  it('serves byte ranges with 206 and Content-Range, across chunk boundaries', async () => {
    const mid = await get(suite.harness.app, `/files/serve/${blob.name}`)
      .set('Range', 'bytes=261000-262000')
      .expect(206);
    assert.equal(mid.headers['content-range'], `bytes 261000-262000/${blob.bytes.length}`);
    assert.equal(mid.headers['content-length'], '1001');
    assert.ok(Buffer.compare(mid.body as Buffer, blob.bytes.subarray(261000, 262001)) === 0);
    const suffix = await get(suite.harness.app, `/files/serve/${blob.name}`).set('Range', 'bytes=-10').expect(206);
    assert.ok(Buffer.compare(suffix.body as Buffer, blob.bytes.subarray(blob.bytes.length - 10)) === 0);
    const open = await get(suite.harness.app, `/files/serve/${blob.name}`).set('Range', 'bytes=999990-').expect(206);
    assert.equal((open.body as Buffer).length, 10);
    // A Range conditioned on another version (If-Range) is ignored: the whole current file is sent.
    const stale = await get(suite.harness.app, `/files/serve/${blob.name}`)
      .set('Range', 'bytes=0-9')
      .set('If-Range', '"old"')
      .expect(200);
    assert.equal((stale.body as Buffer).length, blob.bytes.length);
  });

  it('answers 416 with the error body for a range outside the file', async () => {
    const res = await request(suite.harness.app)
      .get(`/files/serve/${blob.name}`)
      .set('Range', 'bytes=2000000-2000010')
      .expect(416);
    assert.equal(res.headers['content-range'], `bytes */${blob.bytes.length}`);
    assert.equal(res.body.status, 416);
    assert.match(res.body.message, /outside/);
  });

  it('answers 404 with the error body for an unknown Bucket or name', async () => {
    const bucket = await request(suite.harness.app).get(`/files/nowhere/${blob.name}`).expect(404);
    assert.equal(bucket.body.status, 404);
    const name = await request(suite.harness.app).get('/files/serve/missing.png').expect(404);
    assert.match(name.body.message, /missing\.png/);
    await request(suite.harness.app).get('/imgproc/serve/missing.png?w=10').expect(404);
  });

  it('resizes to w=100 in the requested format', async () => {
    for (const fm of ['webp', 'jpg', 'png', 'avif'] as const) {
      const res = await get(suite.harness.app, `/imgproc/serve/${photo.name}?w=100&fm=${fm}`).expect(200);
      const meta = await sharp(res.body as Buffer).metadata();
      assert.equal(meta.width, 100, fm);
      assert.equal(meta.height, 75, fm);
      assert.equal(meta.format, fm === 'jpg' ? 'jpeg' : fm === 'avif' ? 'heif' : fm);
      assert.equal(res.headers['content-type'], fm === 'jpg' ? 'image/jpeg' : `image/${fm}`);
    }
  });

  it('applies fit with both dimensions and keeps the original format without fm', async () => {
    const cover = await get(suite.harness.app, `/imgproc/serve/${photo.name}?w=50&h=50&fit=cover`).expect(200);
    const coverMeta = await sharp(cover.body as Buffer).metadata();
    assert.deepEqual([coverMeta.width, coverMeta.height, coverMeta.format], [50, 50, 'png']);
    const inside = await get(suite.harness.app, `/imgproc/serve/${photo.name}?w=50&h=50&fit=inside`).expect(200);
    const insideMeta = await sharp(inside.body as Buffer).metadata();
    assert.deepEqual([insideMeta.width, insideMeta.height], [50, 38]);
    const crop = await get(suite.harness.app, `/imgproc/serve/${photo.name}?w=40&h=40&fit=crop`).expect(200);
    assert.deepEqual(
      [(await sharp(crop.body as Buffer).metadata()).width, (await sharp(crop.body as Buffer).metadata()).height],
      [40, 40],
    );
  });

  it('stores each variant once: a repeated request does no processing', async () => {
    const path = `/imgproc/serve/${photo.name}?w=120&fm=webp&q=60`;
    const countFor = () =>
      suite.harness.db
        .collection('media_variants.files')
        .countDocuments({ filename: { $regex: 'w=120&h=&fit=cover&fm=webp&q=60$' } });
    const first = await get(suite.harness.app, path).expect(200);
    assert.equal(first.headers['x-imgproc-cache'], 'MISS');
    assert.equal(await countFor(), 1);
    const second = await get(suite.harness.app, path).expect(200);
    assert.equal(second.headers['x-imgproc-cache'], 'HIT');
    assert.ok(Buffer.compare(first.body as Buffer, second.body as Buffer) === 0);
    // The same variant spelled differently (parameter order, case, an ignored parameter) is the same entry.
    const respelled = await get(
      suite.harness.app,
      `/imgproc/serve/${photo.name}?q=60&fm=WEBP&w=120&auto=format`,
    ).expect(200);
    assert.equal(respelled.headers['x-imgproc-cache'], 'HIT');
    assert.equal(await countFor(), 1);
  });

  it('answers 400 with the error body for invalid parameters', async () => {
    const res = await request(suite.harness.app)
      .get(`/imgproc/serve/${photo.name}?w=0&h=5000&fit=squash&fm=bmp&q=101`)
      .expect(400);
    assert.equal(res.body.status, 400);
    for (const p of ['w must be', 'h must be', 'fit must be', 'fm must be', 'q must be'])
      assert.ok(res.body.message.includes(p), p);
    const repeated = await request(suite.harness.app).get(`/imgproc/serve/${photo.name}?w=10&w=20`).expect(400);
    assert.match(repeated.body.message, /w must be given once/);
  });

  it('serves non-images and parameterless requests as the original', async () => {
    const res = await get(suite.harness.app, `/imgproc/serve/${blob.name}?w=100`).expect(200);
    assert.ok(Buffer.compare(res.body as Buffer, blob.bytes) === 0);
    const plain = await get(suite.harness.app, `/imgproc/serve/${photo.name}`).expect(200);
    assert.ok(Buffer.compare(plain.body as Buffer, photo.bytes) === 0);
  });

  it('answers 400, not 500, for a file that claims to be an image but is not', async () => {
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomishBytes(500)]);
    const name = (await upload(suite.harness.app, suite.keys, fake, { filename: 'broken.png' }).expect(200)).body.media
      .name;
    const res = await request(suite.harness.app).get(`/imgproc/serve/${name}?w=10`).expect(400);
    assert.match(res.body.message, /could not be processed as an image/);
  });
});
