import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { bucketsCollection, type BucketDoc } from '../../lib/db/collections.js';
import { deliveriesCollection, webhooksCollection } from '../../lib/webhooks/collections.js';
import { recordEvent } from '../../lib/webhooks/outbox.js';
import { USER_AGENT } from '../../lib/webhooks/attempt.js';
import type { DeliveryWorker } from '../../lib/webhooks/worker.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { webhookClient } from '../support/webhook-client.js';
import { drainUntil, testWorker } from '../support/webhook-helpers.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

describe('webhook delivery', () => {
  let h: Harness;
  let api: ReturnType<typeof webhookClient>;
  let bucket: BucketDoc;
  let receiver: WebhookReceiver;
  let endpoint: string;
  let worker: DeliveryWorker;
  let post: Record<string, unknown>;

  before(async () => {
    h = await freshHarness();
    api = webhookClient(h.app, await h.bucket('deliver'));
    bucket = (await bucketsCollection(h.db).findOne({ slug: 'deliver' }))!;
    receiver = new WebhookReceiver();
    endpoint = await receiver.start();
    worker = testWorker(h.db);
    await api
      .post('/object-types', {
        title: 'Posts',
        metafields: [{ type: 'number', title: 'Price', key: 'price', value: '' }],
      })
      .expect(200);
    await api.post('/object-types', { title: 'Pages' }).expect(200);
    post = (await api.post('/objects', { title: 'Hello', type: 'posts', metadata: { price: 3 } }).expect(200)).body
      .object;
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.respond = () => 204;
    await webhooksCollection(h.db).deleteMany({});
    await deliveriesCollection(h.db).deleteMany({});
  });
  after(async () => {
    await worker.stop();
    await receiver.stop();
    assert.deepEqual(h.errors, []);
  });

  const hook = async (fields: object = {}) =>
    (await api.post('/webhooks', { endpoint, events: ['object.created', 'object.edited'], ...fields }).expect(200)).body
      .webhook as { id: string; secret: string };
  const created = (id?: string) =>
    recordEvent(h.db, {
      bucket,
      type: 'object.created',
      objectType: 'posts',
      data: post,
      ...(id !== undefined && { id }),
    });
  const deliveriesOf = async (id: string, query = '') =>
    (await api.get(`/webhooks/${id}/deliveries${query}`).expect(200)).body;
  const oneDelivery = async (hookId: string, id: string) =>
    (await api.get(`/webhooks/${hookId}/deliveries/${id}`).expect(200)).body.delivery;

  it('signs every request so the Standard Webhooks verifier accepts it, and a tampered body fails', async () => {
    const { id, secret } = await hook({ headers: { 'X-Token': 'abc' } });
    const edited = (await api.patch(`/objects/${String(post.id)}`, { title: 'Hello again' }).expect(200)).body.object;
    assert.equal(await created(), 1);
    assert.equal(await recordEvent(h.db, { bucket, type: 'object.edited', objectType: 'posts', data: edited }), 1);
    await drainUntil(worker, () => receiver.received.length === 2);
    const verifier = new Webhook(secret);
    type Payload = { id: string; type: string; created_at: string; bucket: unknown; data: unknown };
    // Delivery is not ordered: find each by its type.
    const payloads = receiver.received.map(
      (r) => verifier.verify(r.body, r.headers as Record<string, string>) as Payload,
    );
    const byType = new Map(payloads.map((p) => [p.type, p]));
    assert.deepEqual([...byType.keys()].sort(), ['object.created', 'object.edited']);
    const first = byType.get('object.created')!;
    assert.deepEqual(first.bucket, { slug: 'deliver' });
    assert.deepEqual(first.data, post);
    assert.deepEqual(byType.get('object.edited')!.data, edited);
    assert.ok(!Number.isNaN(Date.parse(first.created_at)));
    const got = receiver.received[0]!;
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['user-agent'], USER_AGENT);
    assert.equal(got.headers['x-token'], 'abc');
    assert.match(String(got.headers['webhook-timestamp']), /^\d{10}$/);
    assert.ok(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
    assert.throws(
      () => verifier.verify(got.body.replace('Hello', 'Hellp'), got.headers as Record<string, string>),
      /No matching signature/,
    );
    const log = await deliveriesOf(id);
    assert.deepEqual(new Set(log.deliveries.map((d: { id: string }) => d.id)), new Set(receiver.ids()));
    const newest = log.deliveries[0];
    assert.equal(newest.event_id, byType.get('object.edited')!.id, 'the log lists the newest first');
  });

  it('retries an endpoint that answers 500 twice and then 200: 3 attempts, all in the log', async () => {
    const { id } = await hook();
    receiver.respond = (_req, n) => (n < 2 ? 500 : 200);
    await created();
    await drainUntil(worker, () => receiver.received.length === 3);
    assert.deepEqual(new Set(receiver.ids()).size, 1, 'every attempt carries the same delivery id');
    const [listed] = (await deliveriesOf(id, '?status=delivered')).deliveries;
    assert.equal(listed.id, receiver.ids()[0]);
    assert.equal(listed.status, 'delivered');
    assert.equal(listed.attempt_count, 3);
    assert.equal(listed.last_attempt.status, 200);
    assert.equal(listed.attempts, undefined, 'lists carry the latest attempt only');
    const full = await oneDelivery(id, listed.id);
    assert.deepEqual(
      full.attempts.map((a: { status: number }) => a.status),
      [500, 500, 200],
    );
    assert.deepEqual(
      full.attempts.map((a: { response_body: string }) => a.response_body),
      ['answer 500 to 1', 'answer 500 to 2', 'answer 200 to 3'],
    );
    assert.match(full.attempts[0].error, /answered 500, not 2xx/);
    assert.equal(full.attempts[2].error, null);
    for (const a of full.attempts) {
      assert.ok(Number.isInteger(a.duration_ms) && a.duration_ms >= 0);
      assert.ok(!Number.isNaN(Date.parse(a.at)));
    }
    assert.equal(full.next_attempt_at, null);
    assert.deepEqual(full.payload.data, post);
    assert.equal((await deliveriesOf(id, '?status=failed')).total, 0);
  });

  it('fails a delivery once the schedule is used up, and disables the webhook after N failed in a row', async () => {
    const local = testWorker(h.db, { disableAfterFailures: 2, retryScheduleMs: [10] });
    const { id } = await hook();
    receiver.respond = () => 503;
    await created();
    await drainUntil(local, async () => (await deliveriesOf(id, '?status=failed')).total === 1);
    assert.equal(receiver.received.length, 2, 'the first attempt and one retry');
    assert.equal((await api.get(`/webhooks/${id}`).expect(200)).body.webhook.consecutive_failures, 1);
    await created();
    await drainUntil(local, async () => (await deliveriesOf(id, '?status=failed')).total === 2);
    const w = (await api.get(`/webhooks/${id}`).expect(200)).body.webhook;
    assert.equal(w.enabled, false);
    assert.match(w.disabled_reason, /disabled after 2 consecutive failed deliveries .*answered 503/);
    assert.equal(await created(), 0, 'a disabled webhook is sent nothing');
    // Re-enabled, a success ends the run of failures.
    await api.patch(`/webhooks/${id}`, { enabled: true }).expect(200);
    receiver.respond = () => 200;
    await created();
    await drainUntil(local, async () => (await deliveriesOf(id, '?status=delivered')).total === 1);
    await local.stop();
  });

  it('resets the run of failures when a delivery succeeds', async () => {
    const { id } = await hook();
    await webhooksCollection(h.db).updateOne({}, { $set: { consecutive_failures: 7 } });
    await created();
    await drainUntil(worker, () => receiver.received.length === 1);
    await drainUntil(worker, async () => (await api.get(`/webhooks/${id}`)).body.webhook.consecutive_failures === 0);
  });

  it('redelivers a delivery under the same id, with a fresh round of retries', async () => {
    const { id } = await hook();
    await created();
    await drainUntil(worker, () => receiver.received.length === 1);
    const [delivery] = (await deliveriesOf(id)).deliveries;
    const queued = await api.post(`/webhooks/${id}/deliveries/${delivery.id}/redeliver`, {}).expect(200);
    assert.equal(queued.body.delivery.status, 'pending');
    assert.equal(queued.body.delivery.id, delivery.id);
    await drainUntil(worker, () => receiver.received.length === 2);
    assert.deepEqual(receiver.ids(), [delivery.id, delivery.id]);
    const full = await oneDelivery(id, delivery.id);
    assert.equal(full.attempt_count, 2);
    assert.equal(full.status, 'delivered');
  });

  it('refuses to redeliver a delivery a worker holds right now', async () => {
    const { id } = await hook();
    await created();
    const held = await deliveriesCollection(h.db).findOneAndUpdate(
      {},
      { $set: { claim: { token: 'other', until: new Date(Date.now() + 60_000) } } },
      { returnDocument: 'after' },
    );
    const res = await api.post(`/webhooks/${id}/deliveries/${held!._id.toHexString()}/redeliver`, {}).expect(409);
    assert.equal(res.body.code, 'delivery_in_progress');
  });

  it('records an event once per id, however often it is recorded', async () => {
    await hook();
    assert.equal(await created('evt-1'), 1);
    assert.equal(await created('evt-1'), 0);
    // A webhook added since gets its delivery when the event is recorded again; the first is not repeated.
    await hook({ title: 'second' });
    assert.equal(await created('evt-1'), 1);
    assert.equal(await deliveriesCollection(h.db).countDocuments({ event_id: 'evt-1' }), 2);
    await drainUntil(worker, () => receiver.received.length === 2);
    assert.deepEqual(
      receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id),
      ['evt-1', 'evt-1'],
    );
  });

  it('sends each webhook only its events and types, shaped by props and payload', async () => {
    await hook({ title: 'pages only', object_types: ['pages'] });
    await hook({ title: 'media only', events: ['media.created'] });
    const slim = await hook({ title: 'props', props: 'id,metadata.price' });
    const ids = await hook({ title: 'ids', payload: false });
    assert.equal(await created(), 2);
    await drainUntil(worker, () => receiver.received.length === 2);
    const byHook = new Map(
      await Promise.all(
        receiver.received.map(async (r) => {
          const d = await deliveriesCollection(h.db).findOne({
            event_id: (JSON.parse(r.body) as { id: string }).id,
            body: r.body,
          });
          return [d!.webhook_id.toHexString(), (JSON.parse(r.body) as { data: unknown }).data] as const;
        }),
      ),
    );
    assert.deepEqual(byHook.get(slim.id), { id: post.id, metadata: { price: 3 } });
    assert.deepEqual(byHook.get(ids.id), { id: post.id, slug: post.slug, type: 'posts' });
  });

  it('sends a ping from /test, even to a disabled webhook', async () => {
    const { id, secret } = await hook();
    await api.patch(`/webhooks/${id}`, { enabled: false }).expect(200);
    const res = await api.post(`/webhooks/${id}/test`, {}).expect(200);
    assert.equal(res.body.delivery.type, 'ping');
    await drainUntil(worker, () => receiver.received.length === 1);
    const body = new Webhook(secret).verify(
      receiver.received[0]!.body,
      receiver.received[0]!.headers as Record<string, string>,
    );
    assert.equal((body as { type: string }).type, 'ping');
    assert.deepEqual((body as { data: unknown }).data, { webhook_id: id, title: new URL(endpoint).host });
    assert.equal(receiver.ids()[0], res.body.delivery.id);
  });

  it('fails queued deliveries of a webhook disabled since, without sending them', async () => {
    const { id } = await hook();
    await created();
    await api.patch(`/webhooks/${id}`, { enabled: false }).expect(200);
    await drainUntil(worker, async () => (await deliveriesOf(id, '?status=failed')).total === 1);
    assert.equal(receiver.received.length, 0);
    const [d] = (await deliveriesOf(id)).deliveries;
    assert.match(d.last_attempt.error, /not sent: the webhook is disabled/);
  });

  it('counts an endpoint that does not answer in time as a failed attempt', async () => {
    const local = testWorker(h.db, { timeoutMs: 200, retryScheduleMs: [] });
    const { id } = await hook();
    receiver.respond = () => 'hang';
    await created();
    await drainUntil(local, async () => (await deliveriesOf(id, '?status=failed')).total === 1);
    const [d] = (await deliveriesOf(id)).deliveries;
    assert.equal(d.last_attempt.status, null);
    assert.match(d.last_attempt.error, /no answer within 200 ms/);
    await local.stop();
  });

  it('refuses 169.254.169.254 always, and loopback unless private addresses are allowed', async () => {
    const metadata = await hook({ endpoint: 'http://169.254.169.254/latest/meta-data/' });
    const strict = testWorker(h.db, { allowPrivate: false, retryScheduleMs: [] });
    const loopback = await hook({ title: 'loopback' });
    const byName = await hook({ title: 'by name', endpoint: endpoint.replace('127.0.0.1', 'localhost') });
    await created();
    await drainUntil(strict, async () => (await deliveriesCollection(h.db).countDocuments({ status: 'failed' })) === 3);
    assert.equal(receiver.received.length, 0, 'nothing reached the receiver');
    const errorOf = async (w: { id: string }) => (await deliveriesOf(w.id)).deliveries[0].last_attempt.error as string;
    assert.match(
      await errorOf(metadata),
      /169\.254\.169\.254 is a link-local, metadata or reserved address, which is never allowed/,
    );
    assert.match(
      await errorOf(loopback),
      /127\.0\.0\.1 is a loopback or private address, allowed only when WEBHOOK_ALLOW_PRIVATE=true/,
    );
    assert.match(await errorOf(byName), /refused localhost: .* WEBHOOK_ALLOW_PRIVATE=true/);
    // With private addresses allowed (as in tests and local development) loopback is reached; metadata never.
    await api
      .post(`/webhooks/${loopback.id}/deliveries/${(await deliveriesOf(loopback.id)).deliveries[0].id}/redeliver`, {})
      .expect(200);
    await api
      .post(`/webhooks/${metadata.id}/deliveries/${(await deliveriesOf(metadata.id)).deliveries[0].id}/redeliver`, {})
      .expect(200);
    const lenient = testWorker(h.db, { allowPrivate: true, retryScheduleMs: [] });
    await drainUntil(
      lenient,
      async () => (await deliveriesCollection(h.db).countDocuments({ status: 'pending' })) === 0,
    );
    assert.equal(receiver.received.length, 1);
    assert.match(await errorOf(metadata), /never allowed/);
    await strict.stop();
    await lenient.stop();
  });

  it('connects to the address it resolved and checked, sending the endpoint host in Host', async () => {
    const port = new URL(endpoint).port;
    await hook({ endpoint: `http://hooks.internal.test:${port}/in?x=1` });
    const resolved: string[] = [];
    // A name the system resolver does not know: only the checked answer can have been used.
    const pinned = testWorker(
      h.db,
      {},
      {
        lookup: (host) => {
          resolved.push(host);
          return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
        },
      },
    );
    await created();
    await drainUntil(pinned, () => receiver.received.length === 1);
    assert.deepEqual(resolved, ['hooks.internal.test']);
    assert.equal(receiver.received[0]!.headers.host, `hooks.internal.test:${port}`);
    assert.equal(receiver.received[0]!.path, '/in?x=1');
    await pinned.stop();
  });

  it('pages the delivery log newest first with limit and after, and expires finished deliveries by TTL', async () => {
    const { id } = await hook();
    for (let i = 0; i < 5; i++) await created();
    await drainUntil(worker, () => receiver.received.length === 5);
    const all = (await deliveriesOf(id)).deliveries.map((d: { id: string }) => d.id);
    assert.equal(all.length, 5);
    assert.deepEqual([...all].sort().reverse(), all);
    const first = await deliveriesOf(id, '?limit=2');
    assert.equal(first.total, 5);
    assert.deepEqual(
      first.deliveries.map((d: { id: string }) => d.id),
      all.slice(0, 2),
    );
    const next = await deliveriesOf(id, `?limit=2&after=${all[1]}`);
    assert.deepEqual(
      next.deliveries.map((d: { id: string }) => d.id),
      all.slice(2, 4),
    );
    const doc = await deliveriesCollection(h.db).findOne({});
    assert.ok(doc?.expires_at && doc.finished_at);
    assert.equal(doc.expires_at.getTime() - doc.finished_at.getTime(), 30 * 86_400_000);
    const indexes = await deliveriesCollection(h.db).indexes();
    const ttl = indexes.find((i) => i.name === 'expiry');
    assert.deepEqual(ttl?.key, { expires_at: 1 });
    assert.equal(ttl.expireAfterSeconds, 0);
  });
});
