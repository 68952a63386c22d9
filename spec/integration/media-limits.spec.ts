import assert from 'node:assert/strict';
import { BucketSuite } from '../support/bucket-suite.js';
import { createApp } from '../../lib/app.js';
import { loadConfig } from '../../lib/config.js';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { eventually, randomishBytes, storedFileCounts } from '../support/media.js';
import {
  filePartHead,
  listen,
  PART_TAIL,
  pause,
  startUpload as startRawUpload,
  type Answer,
  type Listening,
} from '../support/raw-upload.js';

const LIMIT = 100_000;
const PART_HEAD = filePartHead();

function startUpload(port: number, keys: IssuedKeys, headers: Record<string, string | number>) {
  return startRawUpload(port, `/v3/buckets/${keys.slug}/media`, {
    Authorization: `Bearer ${keys.write_key}`,
    ...headers,
  });
}

describe('Media upload limits and aborted uploads', () => {
  let server: Listening;
  let port: number;
  const suite = new BucketSuite(
    'limits',
    async () => {
      server = await listen(suite.harness.app);
      port = server.port;
    },
    { MEDIA_MAX_BYTES: String(LIMIT) },
  );
  after(async () => {
    await server.close();
  });

  it('answers 413 before reading the body when Content-Length already exceeds the limit', async () => {
    const total = 20 * 1024 * 1024;
    const { req, answer } = startUpload(port, suite.keys, { 'Content-Length': total });
    req.write(PART_HEAD);
    req.write(randomishBytes(1024));
    // Only about 1 KB of the declared 20 MB is ever sent: an answer proves the server did not wait for the rest.
    const res = await Promise.race([answer, pause(5000).then(() => null)]);
    req.destroy();
    assert.ok(res, 'no answer while the body was still incomplete');
    assert.equal(res.status, 413);
    assert.equal(res.body.status, 413);
    assert.match(String(res.body.message), /larger than the 100000 byte upload limit/);
    assert.equal(res.headers.connection, 'close');
    assert.deepEqual(await storedFileCounts(suite.harness.db), { files: 0, chunks: 0, variants: 0, variantChunks: 0 });
  });

  it('answers 413 as soon as a streamed file crosses the limit and removes the partial file', async () => {
    const { req, answer } = startUpload(port, suite.keys, { 'Transfer-Encoding': 'chunked' });
    req.write(PART_HEAD);
    let sent = 0;
    // Declared wide on purpose: the answer arrives in a callback, which narrowing cannot see.
    let res = null as Answer | null;
    void answer.then((a) => (res = a));
    // Keep sending well past the limit; stop as soon as the answer arrives.
    while (res === null && sent < 20 * LIMIT) {
      req.write(randomishBytes(16 * 1024, sent + 1));
      sent += 16 * 1024;
      await pause(5);
    }
    const got = res ?? (await Promise.race([answer, pause(5000).then(() => null)]));
    req.destroy();
    assert.ok(got, 'no answer');
    assert.equal(got.status, 413);
    assert.match(String(got.body.message), /upload limit/);
    assert.ok(sent < 20 * LIMIT, `the answer came only after the whole body (${sent} bytes)`);
    const clean = await eventually(async () => {
      const counts = await storedFileCounts(suite.harness.db);
      return counts.files === 0 && counts.chunks === 0;
    });
    assert.ok(clean, `partial file left behind: ${JSON.stringify(await storedFileCounts(suite.harness.db))}`);
    assert.equal(await suite.harness.db.collection('media').countDocuments(), 0);
  });

  it('accepts a file of exactly the limit', async () => {
    const body = Buffer.concat([PART_HEAD, randomishBytes(LIMIT), PART_TAIL]);
    const { req, answer } = startUpload(port, suite.keys, { 'Content-Length': body.length });
    req.end(body);
    const res = await answer;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((res.body.media as { size: number }).size, LIMIT);
  });

  it('leaves no partial file and no media record when the client aborts mid-body', async () => {
    // A second app over the same database with a limit the aborted upload stays under.
    const errors: string[] = [];
    const app2 = createApp({
      config: loadConfig({ PUBLIC_URL: 'http://api.test', MEDIA_MAX_BYTES: String(50 * 1024 * 1024) }),
      db: suite.harness.db,
      log: (m) => errors.push(m),
    });
    const server2 = await listen(app2);
    const before = await storedFileCounts(suite.harness.db);
    const mediaBefore = await suite.harness.db.collection('media').countDocuments();
    try {
      const { req } = startUpload(server2.port, suite.keys, {
        'Content-Length': 10 * 1024 * 1024,
      });
      req.write(PART_HEAD);
      for (let i = 0; i < 16; i++) req.write(randomishBytes(64 * 1024, i + 1));
      // Wait until chunks are really being stored, so the abort hits an upload in progress.
      const started = await eventually(async () => (await storedFileCounts(suite.harness.db)).chunks > before.chunks);
      assert.ok(started, 'the upload never started storing chunks');
      req.destroy();
      const clean = await eventually(async () => (await storedFileCounts(suite.harness.db)).chunks === before.chunks);
      assert.ok(clean, `partial file left behind: ${JSON.stringify(await storedFileCounts(suite.harness.db))}`);
      await pause(200);
      assert.deepEqual(await storedFileCounts(suite.harness.db), before);
      assert.equal(await suite.harness.db.collection('media').countDocuments(), mediaBefore);
      assert.deepEqual(errors, []);
    } finally {
      await server2.close();
    }
  });
});
