import assert from 'node:assert/strict';
import { BucketSuite } from '../support/bucket-suite.js';
import type { CommandStartedEvent } from 'mongodb';
import { type Harness } from '../support/harness.js';
import { eventually, randomishBytes, storedFileCounts } from '../support/media.js';
import {
  fieldPart,
  filePartHead,
  formBody,
  listen,
  PART_TAIL,
  pause,
  startUpload,
  type Listening,
} from '../support/raw-upload.js';

const LIMIT = 1024 * 1024;

/** Counts chunk inserts into the originals' GridFS bucket while `work` runs. */
async function chunkInsertsDuring(h: Harness, work: () => Promise<void>): Promise<number> {
  let inserts = 0;
  const listener = (e: CommandStartedEvent) => {
    if (e.commandName === 'insert' && e.command.insert === 'media_files.chunks') inserts += 1;
  };
  h.client.on('commandStarted', listener);
  try {
    await work();
  } finally {
    h.client.off('commandStarted', listener);
  }
  return inserts;
}

describe('Media upload refusals: size limit, keys, keyless uploads', () => {
  let server: Listening;
  const path = () => `/v3/buckets/${suite.keys.slug}/media`;
  const noFilesLeft = () =>
    eventually(async () => {
      const counts = await storedFileCounts(suite.harness.db);
      return counts.files === 0 && counts.chunks === 0;
    });

  const suite = new BucketSuite(
    'refusals',
    async () => {
      server = await listen(suite.harness.app);
    },
    { MEDIA_MAX_BYTES: String(LIMIT) },
  );
  after(async () => {
    await server.close();
  });

  it('answers 413, never the abort that follows, for an over-limit file sent whole without Content-Length', async () => {
    // The whole body goes at once (chunked, so nothing declares its size): the server reads past
    // the limit before it can answer, which is where the abort used to win the race.
    const body = Buffer.concat([filePartHead(), randomishBytes(2 * LIMIT), PART_TAIL]);
    for (let i = 0; i < 10; i++) {
      const { req, answer } = startUpload(server.port, path(), {
        Authorization: `Bearer ${suite.keys.write_key}`,
        'Transfer-Encoding': 'chunked',
      });
      req.end(body);
      const res = await answer;
      assert.equal(res.status, 413, `try ${i + 1}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 'payload_too_large');
      assert.match(String(res.body.message), /larger than the 1048576 byte upload limit/);
    }
    assert.ok(await noFilesLeft(), `partial files left: ${JSON.stringify(await storedFileCounts(suite.harness.db))}`);
  });

  it('answers 401 to a wrong Authorization header before reading the body', async () => {
    const { req, answer } = startUpload(server.port, path(), {
      Authorization: 'Bearer wrong',
      'Content-Length': 200 * 1024 * 1024,
    });
    req.write(filePartHead());
    req.write(randomishBytes(64 * 1024));
    // 64 KB of a declared 200 MB: an answer proves the server did not wait for the rest.
    const res = await Promise.race([answer, pause(5000).then(() => null)]);
    req.destroy();
    assert.ok(res, 'no answer while the body was still incomplete');
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'unauthorized');
    assert.deepEqual(await storedFileCounts(suite.harness.db), { files: 0, chunks: 0, variants: 0, variantChunks: 0 });
  });

  it('checks a write_key field sent before the file before storing any of it', async () => {
    let res = null as Awaited<ReturnType<typeof startUpload>['answer']> | null;
    const inserts = await chunkInsertsDuring(suite.harness, async () => {
      const { req, answer } = startUpload(server.port, path(), { 'Transfer-Encoding': 'chunked' });
      req.write(fieldPart('write_key', 'wrong'));
      req.write(filePartHead());
      for (let i = 0; i < 3 && !req.destroyed; i++) req.write(randomishBytes(256 * 1024, i + 1));
      res = await Promise.race([answer, pause(5000).then(() => null)]);
      req.destroy();
    });
    assert.ok(res, 'no answer while the body was still arriving');
    assert.equal(res.status, 401);
    assert.match(String(res.body.message), /the key given is not valid/);
    assert.equal(inserts, 0, 'chunks were stored before the key was checked');
    assert.deepEqual(await storedFileCounts(suite.harness.db), { files: 0, chunks: 0, variants: 0, variantChunks: 0 });

    const good = startUpload(server.port, path(), {});
    good.req.end(formBody([['write_key', suite.keys.write_key!], Buffer.from('ok')]));
    assert.equal((await good.answer).status, 200);
  });

  it('bounds uploads whose key is not known yet per client: more at once get 429 with Retry-After', async () => {
    const holders = [0, 1].map((i) => {
      const upload = startUpload(server.port, path(), { 'Transfer-Encoding': 'chunked' });
      upload.req.write(filePartHead(`held-${i}.bin`));
      upload.req.write(randomishBytes(300 * 1024, i + 1));
      return upload;
    });
    // Both are storing (so both hold a place) before the third arrives.
    const storing = await eventually(
      async () => (await suite.harness.db.collection('media_files.chunks').distinct('files_id')).length >= 2,
    );
    assert.ok(storing, 'the held uploads never started storing');

    const third = startUpload(server.port, path(), { 'Transfer-Encoding': 'chunked' });
    third.req.end(formBody([Buffer.from('x'), ['write_key', 'late']]));
    const refused = await third.answer;
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'rate_limited');
    assert.equal(refused.headers['retry-after'], '5');
    assert.match(String(refused.body.message), /at most 2/);

    // A key in the header is known before the body: such uploads are never held back.
    const withHeader = startUpload(server.port, path(), { Authorization: `Bearer ${suite.keys.write_key}` });
    withHeader.req.end(formBody([Buffer.from('header')]));
    assert.equal((await withHeader.answer).status, 200);

    for (const held of holders) held.req.destroy();
    const released = await eventually(async () => {
      const next = startUpload(server.port, path(), {});
      next.req.end(formBody([Buffer.from('late key'), ['write_key', suite.keys.write_key!]]));
      return (await next.answer).status === 200;
    });
    assert.ok(released, 'places were not given back when the held uploads ended');
  });
});
