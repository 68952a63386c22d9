import assert from 'node:assert/strict';
import type { CommandStartedEvent } from 'mongodb';
import { eventually, randomishBytes, storedFileCounts } from '../support/media.js';
import { filePartHead, listen, startUpload, type Listening } from '../support/raw-upload.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('Aborted uploads are removed in the background', () => {
  let server: Listening;
  const suite = new BucketSuite('cleanup', async () => {
    server = await listen(suite.harness.app);
  });
  after(async () => {
    await server.close();
  });

  it('removes many aborted uploads in the background with a few batched deletes', async () => {
    const uploads = 20;
    const held = Array.from({ length: uploads }, (_, i) => {
      const { req } = startUpload(server.port, `/v3/buckets/${suite.keys.slug}/media`, {
        Authorization: `Bearer ${suite.keys.write_key}`,
        'Transfer-Encoding': 'chunked',
      });
      req.write(filePartHead(`abort-${i}.bin`));
      // More than one GridFS chunk (255 KB), so each upload has really stored something.
      req.write(randomishBytes(300 * 1024, i + 1));
      return req;
    });
    const storing = await eventually(
      async () => (await suite.harness.db.collection('media_files.chunks').distinct('files_id')).length === uploads,
      10_000,
    );
    assert.ok(storing, `not every upload was storing: ${JSON.stringify(await storedFileCounts(suite.harness.db))}`);

    const chunkDeletes: number[] = [];
    const listener = (e: CommandStartedEvent) => {
      if (e.commandName === 'delete' && e.command.delete === 'media_files.chunks') chunkDeletes.push(Date.now());
    };
    suite.harness.client.on('commandStarted', listener);
    try {
      for (const req of held) req.destroy();
      const clean = await eventually(async () => (await storedFileCounts(suite.harness.db)).chunks === 0, 10_000);
      assert.ok(clean, `partial files left: ${JSON.stringify(await storedFileCounts(suite.harness.db))}`);
    } finally {
      suite.harness.client.off('commandStarted', listener);
    }
    // One delete per upload used to reach the engine at once; now the burst is gathered.
    assert.ok(chunkDeletes.length <= 3, `${chunkDeletes.length} chunk deletes for ${uploads} aborted uploads`);
    assert.equal(await suite.harness.db.collection('media').countDocuments(), 0);
  });
});
