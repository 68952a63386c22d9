import assert from 'node:assert/strict';
import { Binary, ObjectId } from 'mongodb';
import { sweepOrphanChunks } from '../../lib/media/orphan-sweep.js';
import { freshHarness, type Harness } from '../support/harness.js';

const HOUR = 60 * 60 * 1000;

describe('sweepOrphanChunks: GridFS chunks left by a killed process', () => {
  let h: Harness;
  before(async () => {
    h = await freshHarness();
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  /** A fresh ObjectId made `msAgo` ago, as the driver would have made it then. */
  const idFrom = (msAgo: number) => {
    const bytes = Buffer.from(new ObjectId().id);
    bytes.writeUInt32BE(Math.floor((Date.now() - msAgo) / 1000), 0);
    return new ObjectId(bytes);
  };
  const chunk = (filesId: ObjectId, n: number, writtenMsAgo: number) => ({
    _id: idFrom(writtenMsAgo),
    files_id: filesId,
    n,
    data: new Binary(Buffer.from('x')),
  });

  it('removes chunks with no files document idle past the grace period, and nothing else', async () => {
    const chunks = h.db.collection('media_files.chunks');
    const variantChunks = h.db.collection('media_variants.chunks');
    const crashed = idFrom(3 * HOUR);
    const crashedVariant = idFrom(3 * HOUR);
    // Started long ago but still writing: another process's slow upload in flight.
    const slow = idFrom(3 * HOUR);
    const recent = idFrom(60_000);
    const complete = idFrom(3 * HOUR);
    await chunks.insertMany([
      chunk(crashed, 0, 3 * HOUR),
      chunk(crashed, 1, 3 * HOUR),
      chunk(slow, 0, 3 * HOUR),
      chunk(slow, 1, 30_000),
      chunk(recent, 0, 60_000),
      chunk(complete, 0, 3 * HOUR),
    ]);
    await variantChunks.insertOne(chunk(crashedVariant, 0, 3 * HOUR));
    await h.db.collection('media_files.files').insertOne({
      _id: complete,
      length: 1,
      chunkSize: 261120,
      uploadDate: new Date(),
      filename: 'complete.bin',
    });

    const result = await sweepOrphanChunks(h.db, { olderThanMs: HOUR });

    assert.deepEqual(result, { files: 2, chunks: 3 });
    const left = async (c: typeof chunks) =>
      (await c.distinct('files_id')).map((id: ObjectId) => id.toHexString()).sort();
    assert.deepEqual(await left(chunks), [slow, recent, complete].map((id) => id.toHexString()).sort());
    assert.deepEqual(await left(variantChunks), []);
    // A second sweep finds nothing more to do.
    assert.deepEqual(await sweepOrphanChunks(h.db, { olderThanMs: HOUR }), { files: 0, chunks: 0 });
  });
});
