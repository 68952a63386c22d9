import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBucketClient } from '@cosmicjs/sdk';
import request from 'supertest';
import { freshHarness, type Harness } from '../support/harness.js';
import { imageBytes } from '../support/media.js';

/**
 * The official JavaScript SDK, unchanged, uploading into a folder it never created: code written
 * before folders were a resource must keep working, the folder becoming one.
 */
describe('@cosmicjs/sdk media.insertOne with a folder', () => {
  let h: Harness;
  let server: http.Server;

  before(async () => {
    h = await freshHarness();
    server = http.createServer(h.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    assert.deepEqual(h.errors, []);
  });

  it('uploads into a new folder, which then lists as a folder of the Bucket', async () => {
    const keys = await h.bucket('sdk-folders');
    const origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    const cosmic = createBucketClient({
      bucketSlug: keys.slug,
      readKey: keys.read_key ?? '',
      writeKey: keys.write_key ?? '',
      custom: { apiUrl: `${origin}/v3`, uploadUrl: `${origin}/v3` },
    });
    const up = (await cosmic.media.insertOne({
      media: { buffer: await imageBytes(6, 4), originalname: 'cover.png' },
      folder: 'covers',
    })) as { media: { folder: string; original_name: string } };
    assert.deepEqual([up.media.folder, up.media.original_name], ['covers', 'cover.png']);
    const found = (await cosmic.media.find({ folder: 'covers' }).props('original_name')) as {
      media: { original_name: string }[];
    };
    assert.deepEqual(found.media, [{ original_name: 'cover.png' }]);
    const folders = await request(h.app)
      .get(`/v3/buckets/${keys.slug}/media-folders?read_key=${keys.read_key ?? ''}`)
      .expect(200);
    assert.deepEqual(
      (folders.body.folders as { slug: string; media_count: number }[]).map((f) => [f.slug, f.media_count]),
      [['covers', 1]],
    );
  });
});
