import assert from 'node:assert/strict';
import { imageBytes, upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';
import { untargetedDuring } from '../support/shard-targets.js';
import { webhookClient } from '../support/webhook-client.js';

/**
 * Shard targeting: on a cluster sharded by Bucket (`bucket_id` leading every shard key), a command
 * that names its Bucket goes to one shard and one that does not goes to all of them. The requests
 * of a Bucket's day — types, writes, drafts, publishing, batches, lists and reads with depth,
 * revisions, media, webhooks — are sent here, and every command they cause on a Bucket-scoped
 * collection must pin `bucket_id`, except the ones listed with their reason.
 */
describe('every command a Bucket request sends names its Bucket (shard targeting)', () => {
  const suite = new BucketSuite('shards');

  /**
   * Collections whose `_id` is the Bucket's own id, so a cluster shards them by `_id`: a filter
   * on `_id` names the Bucket.
   */
  const KEYED_BY_BUCKET = ['bucket_usage', 'bucket_requests'];

  const targeted = (key: string) => KEYED_BY_BUCKET.some((c) => key.includes(` ${c} {"_id":1`));

  it('sends no command to every shard while a Bucket is written and read', async () => {
    const { api } = suite;
    // Webhook reads take the write key (they show endpoints and headers).
    const hooks = webhookClient(suite.harness.app, suite.keys);
    const found = await untargetedDuring(suite.harness.client, async () => {
      await api.post('/object-types', { title: 'Authors' }).expect(200);
      const related = { type: 'objects', title: 'Authors', key: 'authors', object_type: 'authors', value: '' };
      const score = { type: 'number', title: 'Score', key: 'score', value: '', sortable: true };
      await api.post('/object-types', { title: 'Posts', metafields: [related, score] }).expect(200);
      const author = (await api.post('/objects', { title: 'Ann', type: 'authors' }).expect(200)).body.object.id;
      const post = (
        await api
          .post('/objects', { title: 'First', type: 'posts', metadata: { authors: [author], score: 1 } })
          .expect(200)
      ).body.object.id;
      await api.patch(`/objects/${post}`, { metadata: { score: 2 } }).expect(200);
      await api.patch(`/objects/${post}`, { title: 'Draft', status: 'draft' }).expect(200);
      await api.patch(`/objects/${post}`, { status: 'published' }).expect(200);
      await api.patch(`/objects/${author}`, { title: 'Anne' }).expect(200);
      const q = encodeURIComponent(JSON.stringify({ type: 'posts' }));
      await api.get(`/objects?query=${q}&depth=1&sort=-metadata.score&useCache=false`).expect(200);
      await api.get(`/objects?query=${q}&depth=1&sort=-metadata.score&limit=1&skip=0`).expect(200);
      await api.get(`/objects/${post}?depth=2&useCache=false`).expect(200);
      const revisions = (await api.get(`/objects/${post}/revisions`).expect(200)).body.revisions;
      await api.get(`/objects/${post}/revisions/${String(revisions[0].id)}`).expect(200);
      const batch = await api
        .post('/objects/batch', {
          operations: [
            { method: 'add', object: { title: 'Second', type: 'posts' } },
            { method: 'edit', object_id: post, object: { title: 'Edited' } },
          ],
        })
        .expect(200);
      assert.deepEqual(
        batch.body.operations.map((r: { status: number }) => r.status),
        [200, 200],
      );
      await api.delete(`/objects/${author}`).expect(200);
      const media = (
        await upload(suite.harness.app, suite.keys, await imageBytes(4, 4), { filename: 'a.png' }).expect(200)
      ).body.media.id;
      await api.get('/media?useCache=false').expect(200);
      await api.get(`/media/${String(media)}`).expect(200);
      await api.patch(`/media/${String(media)}`, { alt_text: 'A' }).expect(200);
      await api.delete(`/media/${String(media)}`).expect(200);
      const hook = (
        await api
          .post('/webhooks', { endpoint: 'https://hooks.example.com/in', events: ['object.created'] })
          .expect(200)
      ).body.webhook.id;
      await hooks.get('/webhooks').expect(200);
      await api.delete(`/webhooks/${String(hook)}`).expect(200);
      await api.patch('/object-types/posts', { title: 'Articles' }).expect(200);
    });
    const untargeted = [...found].filter(([key]) => !targeted(key)).map(([key, n]) => `${String(n)}× ${key}`);
    assert.deepEqual(untargeted, []);
  });
});
