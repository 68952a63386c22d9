import assert from 'node:assert/strict';
import request from 'supertest';
import { declareFolders, eventually, imageBytes, randomishBytes, storedFileCounts, upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';
import type { BucketDoc } from '../../lib/db/collections.js';
import type { HttpError } from '../../lib/errors/http-errors.js';
import { removeOriginal } from '../../lib/store/files.js';
import { getMedia } from '../../lib/media/media.js';
import { replaceMediaFile } from '../../lib/media/media-replace.js';
import { storeStream } from '../../lib/media/store-stream.js';

const LIMIT = 100_000;

describe('Media rename, move between folders, and file replacement', () => {
  const suite = new BucketSuite(
    'replacing',
    async () => {
      await declareFolders(suite.harness.app, suite.keys, ['photos', 'archive']);
      await suite.api
        .post('/object-types', {
          title: 'Posts',
          metafields: [{ type: 'file', title: 'Cover', key: 'cover', value: '', media_validation_type: 'image' }],
        })
        .expect(200);
    },
    { MEDIA_MAX_BYTES: String(LIMIT) },
  );

  /** Uploads a fresh image and answers its media item. */
  async function uploaded(filename: string, width = 20, fields: Record<string, string> = {}) {
    const res = await upload(suite.harness.app, suite.keys, await imageBytes(width, 10, 'png'), {
      filename,
      fields,
    }).expect(200);
    return res.body.media as { id: string; name: string; original_name: string; size: number; [k: string]: unknown };
  }

  /** PUT /media/:id/file with `bytes` in the field "media". */
  function replace(id: string, bytes: Buffer | null, filename = 'new.png', field = 'media') {
    let t = request(suite.harness.app)
      .put(`/v3/buckets/${suite.keys.slug}/media/${id}/file`)
      .set('Authorization', `Bearer ${suite.keys.write_key}`);
    t = bytes
      ? t.attach(field, bytes, { filename, contentType: 'application/octet-stream' })
      : t.field('alt_text', 'x');
    return t;
  }

  const fileAt = (name: string) =>
    request(suite.harness.app)
      .get(`/files/${suite.keys.slug}/${name}`)
      .buffer(true)
      .parse((res, done) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          done(null, Buffer.concat(parts));
        });
      });

  describe('rename (PATCH original_name)', () => {
    it('changes the display name and keeps the stored name', async () => {
      const m = await uploaded('before.png');
      const res = await suite.api.patch(`/media/${m.id}`, { original_name: '  Summer hero.png ' }).expect(200);
      assert.equal(res.body.media.original_name, 'Summer hero.png');
      assert.equal(res.body.media.name, m.name);
      const got = await suite.api.get(`/media/${m.id}`).expect(200);
      assert.equal(got.body.media.original_name, 'Summer hero.png');
      await fileAt(m.name).expect(200);
    });

    it('refuses an empty name, one with control characters, or one too long, in one 400', async () => {
      const m = await uploaded('keep.png');
      for (const [name, problem] of [
        ['   ', /original_name must have a visible character/],
        ['bad\u0007name', /original_name must not contain control characters/],
        ['x'.repeat(256), /original_name must be at most 255 characters long/],
      ] as const) {
        const res = await suite.api.patch(`/media/${m.id}`, { original_name: name }).expect(400);
        assert.equal(res.body.status, 400);
        assert.equal(res.body.code, 'invalid_body');
        assert.match(String(res.body.message), problem);
      }
      const res = await suite.api.patch(`/media/${m.id}`, { original_name: 7 }).expect(400);
      assert.match(String(res.body.message), /original_name must be a string/);
      const both = await suite.api.patch(`/media/${m.id}`, { original_name: ' ', metadata: { $x: 1 } }).expect(400);
      assert.match(String(both.body.message), /original_name must have a visible character; body\.metadata/);
      assert.equal((await suite.api.get(`/media/${m.id}`).expect(200)).body.media.original_name, 'keep.png');
    });
  });

  describe('move (PATCH folder)', () => {
    it('moves an item into a folder, to another, and out of folders', async () => {
      const m = await uploaded('moving.png', 20, { folder: 'photos' });
      assert.equal(m.folder, 'photos');
      const moved = await suite.api.patch(`/media/${m.id}`, { folder: 'archive' }).expect(200);
      assert.equal(moved.body.media.folder, 'archive');
      const listed = await suite.api.get(`/media?folder=archive&useCache=false`).expect(200);
      assert.ok(listed.body.media.some((x: { id: string }) => x.id === m.id));
      const refused = await suite.api.patch(`/media/${m.id}`, { folder: 'nowhere' }).expect(400);
      assert.equal(refused.body.code, 'folder_unknown');
      const out = await suite.api.patch(`/media/${m.id}`, { folder: null }).expect(200);
      assert.equal(out.body.media.folder, null);
    });
  });

  describe('replace (PUT /media/:id/file)', () => {
    it('serves the new bytes under the same name and id; a file Metafield still resolves', async () => {
      const m = await uploaded('cover.png', 20, { alt_text: 'A cover', folder: 'photos' });
      const post = await suite.api
        .post('/objects', { title: 'Hello', type: 'posts', metadata: { cover: m.name } })
        .expect(200);
      // A processed image made from the old bytes, to see it purged.
      await request(suite.harness.app).get(`/imgproc/${suite.keys.slug}/${m.name}?w=5`).expect(200);
      const variantsBefore = await suite.harness.db.collection('media_variants.files').countDocuments();
      assert.equal(variantsBefore, 1);

      const oldTag = (await fileAt(m.name).expect(200)).headers.etag;
      const fresh = await imageBytes(40, 30, 'webp');
      await suite.harness.settled();
      const from = suite.harness.emitted.length;
      const res = await replace(m.id, fresh, 'new-cover.webp').expect(200);
      assert.deepEqual(
        suite.harness.emitted.slice(from).map((e) => [e.type, e.subjectId, (e.data as { size: number }).size]),
        [['media.edited', m.id, fresh.length]],
      );
      const after = res.body.media;
      assert.equal(after.id, m.id);
      assert.equal(after.name, m.name);
      assert.equal(after.original_name, 'cover.png', 'the display name is the item\u2019s, not the new file\u2019s');
      assert.equal(after.type, 'image/webp');
      assert.equal(after.size, fresh.length);
      assert.deepEqual([after.width, after.height], [40, 30]);
      assert.equal(after.alt_text, 'A cover');
      assert.equal(after.folder, 'photos');

      const served = await fileAt(m.name).expect(200);
      assert.equal(served.headers['content-type'], 'image/webp');
      assert.deepEqual(served.body, fresh);
      // A cache holding the old bytes asks again and gets the new ones, not a 304.
      assert.notEqual(served.headers.etag, oldTag);
      const revalidated = await fileAt(m.name).set('If-None-Match', String(oldTag)).expect(200);
      assert.deepEqual(revalidated.body, fresh);
      assert.equal(await suite.harness.db.collection('media_variants.files').countDocuments(), 0);
      const processed = await request(suite.harness.app).get(`/imgproc/${suite.keys.slug}/${m.name}?w=5`).expect(200);
      assert.equal(processed.headers['x-imgproc-cache'], 'MISS');

      const obj = await suite.api.get(`/objects/${post.body.object.id}?props=metadata`).expect(200);
      assert.equal(obj.body.object.metadata.cover.url, `http://api.test/files/${suite.keys.slug}/${m.name}`);
      await suite.api.patch(`/objects/${post.body.object.id}`, { metadata: { cover: m.name } }).expect(200);
    });

    it('removes the old stored file and counts the new size on the plan', async () => {
      const m = await uploaded('counted.png', 10);
      const before = await storedFileCounts(suite.harness.db);
      const bytesBefore = (await suite.harness.db.collection('bucket_usage').findOne({}))?.media_bytes as number;
      const bigger = await imageBytes(60, 60, 'png');
      await replace(m.id, bigger).expect(200);
      const afterCounts = await storedFileCounts(suite.harness.db);
      assert.equal(afterCounts.files, before.files, 'one file in, one file out');
      const bytesAfter = (await suite.harness.db.collection('bucket_usage').findOne({}))?.media_bytes as number;
      assert.equal(bytesAfter - bytesBefore, bigger.length - m.size);
    });

    it('answers 404 for an unknown or malformed id, storing nothing', async () => {
      const before = await storedFileCounts(suite.harness.db);
      const png = await imageBytes(5, 5, 'png');
      const res = await replace('0123456789abcdef01234567', png).expect(404);
      assert.equal(res.body.code, 'media_not_found');
      assert.equal(res.headers.connection, 'close', 'the unwanted file is not waited for');
      await replace('nope', png).expect(404);
      assert.deepEqual(await storedFileCounts(suite.harness.db), before);
    });

    it('refuses a form without the file, a non-image for an image, and unknown fields, keeping the old file', async () => {
      const m = await uploaded('stays.png');
      const old = await fileAt(m.name).expect(200);
      const before = await storedFileCounts(suite.harness.db);

      const empty = await replace(m.id, null).expect(400);
      assert.equal(empty.body.code, 'invalid_body');
      assert.match(String(empty.body.message), /field "media"/);

      const text = await replace(m.id, Buffer.from('just some text'), 'notes.txt').expect(400);
      assert.equal(text.body.code, 'invalid_body');
      assert.match(String(text.body.message), /is an image \(image\/png\).*text\/plain/);

      const wrongField = await replace(m.id, await imageBytes(5, 5), 'x.png', 'file').expect(400);
      assert.match(String(wrongField.body.message), /Unexpected file field "file"/);

      const json = await request(suite.harness.app)
        .put(`/v3/buckets/${suite.keys.slug}/media/${m.id}/file`)
        .set('Authorization', `Bearer ${suite.keys.write_key}`)
        .send({ media: 'x' })
        .expect(415);
      assert.equal(json.body.status, 415);

      const unkeyed = await request(suite.harness.app)
        .put(`/v3/buckets/${suite.keys.slug}/media/${m.id}/file`)
        .attach('media', await imageBytes(5, 5), 'x.png')
        .expect(401);
      assert.equal(unkeyed.body.status, 401);

      // Refused files go in the background; the item's own file is untouched throughout.
      assert.deepEqual((await fileAt(m.name).expect(200)).body, old.body);
      assert.equal((await suite.api.get(`/media/${m.id}`).expect(200)).body.media.size, m.size);
      const settled = await eventually(async () => {
        const now = await storedFileCounts(suite.harness.db);
        return now.files === before.files && now.chunks === before.chunks;
      });
      assert.ok(settled, 'every refused file was removed');
    });

    it('answers 413 for a file over the upload limit and keeps the old file', async () => {
      const m = await uploaded('small.png');
      const res = await replace(m.id, randomishBytes(LIMIT + 10), 'huge.bin');
      assert.equal(res.status, 413);
      assert.equal(res.body.status, 413);
      assert.match(String(res.body.message), /larger than the 100000 byte upload limit/);
      const got = await suite.api.get(`/media/${m.id}`).expect(200);
      assert.equal(got.body.media.size, m.size);
      await fileAt(m.name).expect(200);
    });

    it('refuses a replacement based on a read another replacement overtook (409), leaving its file untaken (the upload cleanup removes it)', async () => {
      const m = await uploaded('raced.png');
      const bucket = await suite.harness.db.collection<BucketDoc>('buckets').findOne({ slug: suite.keys.slug });
      assert.ok(bucket);
      const read = await getMedia(suite.harness.db, bucket, m.id);
      await replace(m.id, await imageBytes(12, 12)).expect(200);
      const winner = await getMedia(suite.harness.db, bucket, m.id);
      const late = await storeStream(suite.harness.db, [await imageBytes(14, 14)], {
        bucketId: bucket._id,
        originalName: 'late.png',
        claimedType: 'image/png',
        maxBytes: LIMIT,
        discard: () => undefined,
      });
      const taken: string[] = [];
      await assert.rejects(
        replaceMediaFile(suite.harness.writes, bucket, read, late, () => {
          taken.push(late.file_id.toHexString());
        }),
        (err: HttpError) => err.status === 409 && err.code === 'conflict' && /retry/.test(err.message),
      );
      assert.deepEqual(taken, []);
      const now = await getMedia(suite.harness.db, bucket, m.id);
      assert.deepEqual(now.file_id, winner.file_id, 'the first replacement stands');
      await removeOriginal(suite.harness.db, late.file_id);
    });

    it('replaces a non-image with any file type', async () => {
      const doc = await upload(suite.harness.app, suite.keys, Buffer.from('first text'), {
        filename: 'readme.txt',
      }).expect(200);
      const pdf = Buffer.from('%PDF-1.7 second');
      const res = await replace(doc.body.media.id, pdf, 'readme.pdf').expect(200);
      assert.equal(res.body.media.type, 'application/pdf');
      assert.equal(res.body.media.name, doc.body.media.name);
      assert.deepEqual((await fileAt(doc.body.media.name).expect(200)).body, pdf);
    });
  });
});
