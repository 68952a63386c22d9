import assert from 'node:assert/strict';
import type { Document } from 'mongodb';
import sharp from 'sharp';
import request from 'supertest';
import { MAX_STORED_VARIANTS_PER_IMAGE } from '../../lib/media/imgproc-limits.js';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { type Harness } from '../support/harness.js';
import { eventually, imageBytes, randomishBytes, upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

/** A PNG of random pixels: resized, it stays incompressible, so variant sizes are predictable. */
function noisePng(width: number, height: number): Promise<Buffer> {
  return sharp(randomishBytes(width * height * 3, width), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

async function uploadImage(h: Harness, keys: IssuedKeys, bytes: Buffer, filename: string): Promise<string> {
  return (await upload(h.app, keys, bytes, { filename }).expect(200)).body.media.name as string;
}

const variantsOf = (h: Harness, filter: Document = {}) =>
  h.db.collection('media_variants.files').find(filter).sort({ _id: 1 }).toArray();

describe('Image processing limits', () => {
  describe('output size and stored variants', () => {
    const suite = new BucketSuite('imglimits');

    it('answers 400 naming the pixel limit when the output would be too large, and stores nothing', async () => {
      const wide = await uploadImage(suite.harness, suite.keys, await imageBytes(400, 300), 'wide.png');
      // fit=outside covers the box: 4000x4000 over a 4:3 image is 5333x4000.
      const outside = await request(suite.harness.app)
        .get(`/imgproc/imglimits/${wide}?w=4000&h=4000&fit=outside`)
        .expect(400);
      assert.equal(outside.body.code, 'invalid_parameter');
      assert.match(outside.body.message, /5333x4000 pixels; at most 16000000 pixels/);
      // Only a width: the height follows the aspect ratio, 4000 x 160000 for a 1:40 strip.
      const tall = await uploadImage(suite.harness, suite.keys, await imageBytes(10, 400), 'tall.png');
      const strip = await request(suite.harness.app).get(`/imgproc/imglimits/${tall}?w=4000`).expect(400);
      assert.match(strip.body.message, /4000x160000 pixels; at most 16000000 pixels/);
      // The limit itself is allowed.
      await request(suite.harness.app).get(`/imgproc/imglimits/${wide}?w=40&h=40&fit=fill`).expect(200);
      assert.equal((await variantsOf(suite.harness)).length, 1);
    });

    it(`stores at most ${MAX_STORED_VARIANTS_PER_IMAGE} variants per image and serves further ones unstored`, async () => {
      const name = await uploadImage(suite.harness, suite.keys, await imageBytes(60, 40), 'many.png');
      const media = await suite.harness.db.collection('media').findOne({ name });
      assert.ok(media);
      for (let w = 1; w <= MAX_STORED_VARIANTS_PER_IMAGE; w++) {
        const res = await request(suite.harness.app).get(`/imgproc/imglimits/${name}?w=${w}`).expect(200);
        assert.equal(res.headers['x-imgproc-cache'], 'MISS', `w=${w}`);
      }
      const over = await request(suite.harness.app)
        .get(`/imgproc/imglimits/${name}?w=${MAX_STORED_VARIANTS_PER_IMAGE + 1}`)
        .buffer(true)
        .expect(200);
      assert.equal(over.headers['x-imgproc-cache'], 'BYPASS');
      assert.equal(over.headers['content-type'], 'image/png');
      assert.equal((await sharp(over.body as Buffer).metadata()).width, MAX_STORED_VARIANTS_PER_IMAGE + 1);
      const again = await request(suite.harness.app).get(
        `/imgproc/imglimits/${name}?w=${MAX_STORED_VARIANTS_PER_IMAGE + 1}`,
      );
      assert.equal(again.headers['x-imgproc-cache'], 'BYPASS');
      assert.equal(
        (await variantsOf(suite.harness, { 'metadata.media_id': media._id })).length,
        MAX_STORED_VARIANTS_PER_IMAGE,
      );
      // Stored variants are still served from storage.
      const hit = await request(suite.harness.app).get(`/imgproc/imglimits/${name}?w=3`).expect(200);
      assert.equal(hit.headers['x-imgproc-cache'], 'HIT');
    });
  });

  describe('cache budget per Bucket', () => {
    const suite = new BucketSuite('lru', undefined, { IMGPROC_CACHE_MB_PER_BUCKET: '1' });

    it('evicts the least recently used variants once the Bucket is over its budget', async () => {
      const name = await uploadImage(suite.harness, suite.keys, await noisePng(1000, 1000), 'noise.png');
      const make = async (w: number) => {
        const res = await request(suite.harness.app).get(`/imgproc/lru/${name}?w=${w}`).expect(200);
        assert.equal(res.headers['x-imgproc-cache'], 'MISS');
      };
      for (const w of [330, 331, 332]) await make(w);
      const three = await variantsOf(suite.harness);
      const bytes = (files: Document[]) => files.reduce((n, f) => n + (f.length as number), 0);
      assert.ok(bytes(three) < 1024 * 1024, `three variants already fill the budget: ${bytes(three)} bytes`);
      assert.ok(bytes(three) + (three[0]!.length as number) > 1024 * 1024, 'a fourth would still fit');
      // Last used 3, 2 and 1 hours ago; then the oldest is used again, so 331 becomes the least recent.
      const files = suite.harness.db.collection('media_variants.files');
      for (const [i, f] of three.entries()) {
        await files.updateOne(
          { _id: f._id },
          { $set: { 'metadata.used_at': new Date(Date.now() - (3 - i) * 3600_000) } },
        );
      }
      const hit = await request(suite.harness.app).get(`/imgproc/lru/${name}?w=330`).expect(200);
      assert.equal(hit.headers['x-imgproc-cache'], 'HIT');

      await make(333);

      const left = (await variantsOf(suite.harness)).map((f) => /w=(\d+)/.exec(f.filename as string)?.[1]);
      assert.deepEqual(left, ['330', '332', '333']);
      assert.ok(bytes(await variantsOf(suite.harness)) <= 1024 * 1024);
      const evicted = three[1]!._id;
      const chunksGone = await eventually(
        async () =>
          (await suite.harness.db.collection('media_variants.chunks').countDocuments({ files_id: evicted })) === 0,
      );
      assert.ok(chunksGone, 'the evicted variant kept its chunks');
    });
  });

  describe('concurrent processing', () => {
    const suite = new BucketSuite('busy', undefined, { IMGPROC_CONCURRENCY: '1' });

    it('answers 503 with Retry-After once the processing queue is full, instead of piling up work', async () => {
      const name = await uploadImage(suite.harness, suite.keys, await noisePng(1200, 900), 'busy.png');
      // One slot and four places in the queue: of twelve distinct requests at once, some must wait out.
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          request(suite.harness.app).get(`/imgproc/busy/${name}?w=${1000 + i}&fm=avif`),
        ),
      );
      const statuses = answers.map((r) => r.status);
      const busy = answers.filter((r) => r.status === 503);
      assert.ok(busy.length > 0, `no request was refused: ${statuses.join(',')}`);
      assert.ok(statuses.includes(200), `none was served: ${statuses.join(',')}`);
      assert.deepEqual(
        statuses.filter((s) => s !== 200 && s !== 503),
        [],
      );
      for (const r of busy) {
        assert.equal(r.headers['retry-after'], '2');
        assert.equal(r.body.code, 'service_unavailable');
        assert.match(r.body.message, /Image processing is at capacity/);
      }
    });
  });
});
