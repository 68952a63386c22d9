import assert from 'node:assert/strict';
import type { CommandStartedEvent } from 'mongodb';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { eventually, randomishBytes, storedFileCounts } from '../support/media.js';
import { filePartHead, listen, startUpload, type Listening } from '../support/raw-upload.js';

describe('Aborted uploads are removed in the background', () => {
  let h: Harness;
  let keys: IssuedKeys;
  let server: Listening;
  before(async () => {
    h = await freshHarness();
    keys = await h.bucket('cleanup');
    server = await listen(h.app);
  });
  after(async () => {
    await server.close();
    assert.deepEqual(h.errors, []);
  });

  it('removes many aborted uploads in the background with a few batched deletes', async () => {
    const uploads = 20;
    const held = Array.from({ length: uploads }, (_, i) => {
      const { req } = startUpload(server.port, `/v3/buckets/${keys.slug}/media`, {
        Authorization: `Bearer ${keys.write_key}`,
        'Transfer-Encoding': 'chunked',
      });
      req.write(filePartHead(`abort-${i}.bin`));
      // More than one GridFS chunk (255 KB), so each upload has really stored something.
      req.write(randomishBytes(300 * 1024, i + 1));
      return req;
    });
    const storing = await eventually(
      async () => (await h.db.collection('media_files.chunks').distinct('files_id')).length === uploads,
      10_000,
    );
    assert.ok(storing, `not every upload was storing: ${JSON.stringify(await storedFileCounts(h.db))}`);

    const chunkDeletes: number[] = [];
    const listener = (e: CommandStartedEvent) => {
      if (e.commandName === 'delete' && e.command.delete === 'media_files.chunks') chunkDeletes.push(Date.now());
    };
    h.client.on('commandStarted', listener);
    try {
      for (const req of held) req.destroy();
      const clean = await eventually(async () => (await storedFileCounts(h.db)).chunks === 0, 10_000);
      assert.ok(clean, `partial files left: ${JSON.stringify(await storedFileCounts(h.db))}`);
    } finally {
      h.client.off('commandStarted', listener);
    }
    // One delete per upload used to reach the engine at once; now the burst is gathered.
    assert.ok(chunkDeletes.length <= 3, `${chunkDeletes.length} chunk deletes for ${uploads} aborted uploads`);
    assert.equal(await h.db.collection('media').countDocuments(), 0);
  });
});
