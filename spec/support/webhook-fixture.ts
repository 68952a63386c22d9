import assert from 'node:assert/strict';
import { bucketsCollection, type BucketDoc } from '../../lib/db/collections.js';
import { deliveriesCollection, webhooksCollection } from '../../lib/store/webhooks.js';
import { recordEvent } from '../../lib/webhooks/outbox.js';
import { bumpWebhookGeneration } from '../../lib/webhooks/outbox.js';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import type { DeliveryWorker } from '../../lib/webhooks/worker.js';
import { freshHarness, type Harness } from './harness.js';
import { webhookClient } from './webhook-client.js';
import { testWorker } from './webhook-helpers.js';
import { WebhookReceiver } from './webhook-receiver.js';

/**
 * What delivery tests share: an app and a Bucket with a `posts` Object rendered by the API, a
 * receiver on loopback, a worker (driven by the test, not a timer), and shortcuts to make a
 * webhook, record an event and read the delivery log through HTTP. Register with mocha hooks:
 * `const f = webhookFixture('slug')`.
 */
export function webhookFixture(slug: string) {
  const f = {} as {
    h: Harness;
    api: ReturnType<typeof webhookClient>;
    keys: IssuedKeys;
    bucket: BucketDoc;
    receiver: WebhookReceiver;
    endpoint: string;
    worker: DeliveryWorker;
    post: Record<string, unknown>;
  };
  before(async () => {
    f.h = await freshHarness();
    f.keys = await f.h.bucket(slug);
    f.api = webhookClient(f.h.app, f.keys);
    f.bucket = (await bucketsCollection(f.h.db).findOne({ slug }))!;
    f.receiver = new WebhookReceiver();
    f.endpoint = await f.receiver.start();
    f.worker = testWorker(f.h.db);
    const price = { type: 'number', title: 'Price', key: 'price', value: '' };
    await f.api.post('/object-types', { title: 'Posts', metafields: [price] }).expect(200);
    await f.api.post('/object-types', { title: 'Pages' }).expect(200);
    const made = await f.api.post('/objects', { title: 'Hello', type: 'posts', metadata: { price: 3 } }).expect(200);
    f.post = made.body.object;
  });
  beforeEach(async () => {
    f.receiver.received.length = 0;
    f.receiver.respond = () => 204;
    await webhooksCollection(f.h.db).deleteMany({});
    // Removed behind the API's back, so say so as its writes do: events read webhooks by generation.
    await bumpWebhookGeneration(f.h.db, f.bucket._id);
    await deliveriesCollection(f.h.db).deleteMany({});
  });
  after(async () => {
    await f.worker.stop();
    await f.receiver.stop();
    assert.deepEqual(f.h.errors, []);
  });
  return Object.assign(f, {
    /** A webhook on the receiver for object.created and object.edited unless `fields` say otherwise. */
    hook: async (fields: object = {}) =>
      (
        await f.api
          .post('/webhooks', { endpoint: f.endpoint, events: ['object.created', 'object.edited'], ...fields })
          .expect(200)
      ).body.webhook as { id: string; secret: string },
    /** Records object.created of the post, as its write path will. */
    created: (id?: string) =>
      recordEvent(f.h.db, {
        bucket: f.bucket,
        type: 'object.created',
        objectType: 'posts',
        data: f.post,
        ...(id !== undefined && { id }),
      }),
    deliveriesOf: async (hookId: string, query = '') =>
      (await f.api.get(`/webhooks/${hookId}/deliveries${query}`).expect(200)).body,
    oneDelivery: async (hookId: string, id: string) =>
      (await f.api.get(`/webhooks/${hookId}/deliveries/${id}`).expect(200)).body.delivery,
  });
}
