import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { deliveriesCollection, webhooksCollection } from '../../lib/store/webhooks.js';
import { USER_AGENT } from '../../lib/webhooks/attempt.js';
import { webhookFixture } from '../support/webhook-fixture.js';
import { drainUntil, testWorker } from '../support/webhook-helpers.js';

describe('webhook delivery', () => {
  const f = webhookFixture('deliver');

  it('signs every request so the Standard Webhooks verifier accepts it, and a tampered body fails', async () => {
    const { id, secret } = await f.hook({ headers: { 'X-Token': 'abc' } });
    assert.equal(await f.created(), 1);
    // The write path records object.edited itself, with the Object as the PATCH answered it.
    const edited = (await f.api.patch(`/objects/${String(f.post.id)}`, { title: 'Hello again' }).expect(200)).body
      .object;
    await drainUntil(f.worker, () => f.receiver.received.length === 2);
    const verifier = new Webhook(secret);
    type Payload = { id: string; type: string; created_at: string; bucket: unknown; data: unknown };
    // Delivery is not ordered: find each by its type.
    const payloads = f.receiver.received.map(
      (r) => verifier.verify(r.body, r.headers as Record<string, string>) as Payload,
    );
    const byType = new Map(payloads.map((p) => [p.type, p]));
    assert.deepEqual([...byType.keys()].sort(), ['object.created', 'object.edited']);
    const first = byType.get('object.created')!;
    assert.deepEqual(first.bucket, { slug: 'deliver' });
    assert.deepEqual(first.data, f.post);
    assert.deepEqual(byType.get('object.edited')!.data, edited);
    assert.ok(!Number.isNaN(Date.parse(first.created_at)));
    const got = f.receiver.received[0]!;
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['user-agent'], USER_AGENT);
    assert.equal(got.headers['x-token'], 'abc');
    assert.match(String(got.headers['webhook-timestamp']), /^\d{10}$/);
    assert.ok(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
    assert.throws(
      () => verifier.verify(got.body.replace('Hello', 'Hellp'), got.headers as Record<string, string>),
      /No matching signature/,
    );
    const log = await f.deliveriesOf(id);
    assert.deepEqual(new Set(log.deliveries.map((d: { id: string }) => d.id)), new Set(f.receiver.ids()));
    const newest = log.deliveries[0];
    assert.equal(newest.event_id, byType.get('object.edited')!.id, 'the log lists the newest first');
  });

  it('retries an endpoint that answers 500 twice and then 200: 3 attempts, all in the log', async () => {
    const { id } = await f.hook();
    f.receiver.respond = (_req, n) => (n < 2 ? 500 : 200);
    await f.created();
    await drainUntil(f.worker, () => f.receiver.received.length === 3);
    assert.deepEqual(new Set(f.receiver.ids()).size, 1, 'every attempt carries the same delivery id');
    const [listed] = (await f.deliveriesOf(id, '?status=delivered')).deliveries;
    assert.equal(listed.id, f.receiver.ids()[0]);
    assert.equal(listed.status, 'delivered');
    assert.equal(listed.attempt_count, 3);
    assert.equal(listed.last_attempt.status, 200);
    assert.equal(listed.attempts, undefined, 'lists carry the latest attempt only');
    const full = await f.oneDelivery(id, listed.id);
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
    assert.deepEqual(full.payload.data, f.post);
    assert.equal((await f.deliveriesOf(id, '?status=failed')).total, 0);
  });

  it('fails a delivery once the schedule is used up, and disables the webhook after N failed in a row', async () => {
    const local = testWorker(f.h.db, { disableAfterFailures: 2, retryScheduleMs: [10] });
    const { id } = await f.hook();
    f.receiver.respond = () => 503;
    await f.created();
    await drainUntil(local, async () => (await f.deliveriesOf(id, '?status=failed')).total === 1);
    assert.equal(f.receiver.received.length, 2, 'the first attempt and one retry');
    assert.equal((await f.api.get(`/webhooks/${id}`).expect(200)).body.webhook.consecutive_failures, 1);
    await f.created();
    await drainUntil(local, async () => (await f.deliveriesOf(id, '?status=failed')).total === 2);
    const w = (await f.api.get(`/webhooks/${id}`).expect(200)).body.webhook;
    assert.equal(w.enabled, false);
    assert.match(w.disabled_reason, /disabled after 2 consecutive failed deliveries .*answered 503/);
    assert.equal(await f.created(), 0, 'a disabled webhook is sent nothing');
    // Re-enabled, a success ends the run of failures.
    await f.api.patch(`/webhooks/${id}`, { enabled: true }).expect(200);
    f.receiver.respond = () => 200;
    await f.created();
    await drainUntil(local, async () => (await f.deliveriesOf(id, '?status=delivered')).total === 1);
    await local.stop();
  });

  it('resets the run of failures when a delivery succeeds', async () => {
    const { id } = await f.hook();
    await webhooksCollection(f.h.db).updateOne({}, { $set: { consecutive_failures: 7 } });
    await f.created();
    await drainUntil(f.worker, () => f.receiver.received.length === 1);
    await drainUntil(
      f.worker,
      async () => (await f.api.get(`/webhooks/${id}`)).body.webhook.consecutive_failures === 0,
    );
  });

  it('redelivers a delivery under the same id, with a fresh round of retries', async () => {
    const { id } = await f.hook();
    await f.created();
    await drainUntil(f.worker, () => f.receiver.received.length === 1);
    const [delivery] = (await f.deliveriesOf(id)).deliveries;
    const queued = await f.api.post(`/webhooks/${id}/deliveries/${delivery.id}/redeliver`, {}).expect(200);
    assert.equal(queued.body.delivery.status, 'pending');
    assert.equal(queued.body.delivery.id, delivery.id);
    await drainUntil(f.worker, () => f.receiver.received.length === 2);
    assert.deepEqual(f.receiver.ids(), [delivery.id, delivery.id]);
    const full = await f.oneDelivery(id, delivery.id);
    assert.equal(full.attempt_count, 2);
    assert.equal(full.status, 'delivered');
  });

  it('refuses to redeliver a delivery a worker holds right now', async () => {
    const { id } = await f.hook();
    await f.created();
    const held = await deliveriesCollection(f.h.db).findOneAndUpdate(
      {},
      { $set: { claim: { token: 'other', until: new Date(Date.now() + 60_000) } } },
      { returnDocument: 'after' },
    );
    const res = await f.api.post(`/webhooks/${id}/deliveries/${held!._id.toHexString()}/redeliver`, {}).expect(409);
    assert.equal(res.body.code, 'delivery_in_progress');
  });

  it('records an event once per id, however often it is recorded', async () => {
    await f.hook();
    assert.equal(await f.created('evt-1'), 1);
    assert.equal(await f.created('evt-1'), 0);
    // A webhook added since gets its delivery when the event is recorded again; the first is not repeated.
    await f.hook({ title: 'second' });
    assert.equal(await f.created('evt-1'), 1);
    assert.equal(await deliveriesCollection(f.h.db).countDocuments({ event_id: 'evt-1' }), 2);
    await drainUntil(f.worker, () => f.receiver.received.length === 2);
    assert.deepEqual(
      f.receiver.received.map((r) => (JSON.parse(r.body) as { id: string }).id),
      ['evt-1', 'evt-1'],
    );
  });

  it('sends each webhook only its events and types, shaped by props and payload', async () => {
    await f.hook({ title: 'pages only', object_types: ['pages'] });
    await f.hook({ title: 'media only', events: ['media.created'] });
    const slim = await f.hook({ title: 'props', props: 'id,metadata.price' });
    const ids = await f.hook({ title: 'ids', payload: false });
    assert.equal(await f.created(), 2);
    await drainUntil(f.worker, () => f.receiver.received.length === 2);
    const byHook = new Map(
      await Promise.all(
        f.receiver.received.map(async (r) => {
          const d = await deliveriesCollection(f.h.db).findOne({
            event_id: (JSON.parse(r.body) as { id: string }).id,
            body: r.body,
          });
          return [d!.webhook_id.toHexString(), (JSON.parse(r.body) as { data: unknown }).data] as const;
        }),
      ),
    );
    assert.deepEqual(byHook.get(slim.id), { id: f.post.id, metadata: { price: 3 } });
    assert.deepEqual(byHook.get(ids.id), { id: f.post.id, slug: f.post.slug, type: 'posts' });
  });

  it('sends a ping from /test, even to a disabled webhook', async () => {
    const { id, secret } = await f.hook();
    await f.api.patch(`/webhooks/${id}`, { enabled: false }).expect(200);
    const res = await f.api.post(`/webhooks/${id}/test`, {}).expect(200);
    assert.equal(res.body.delivery.type, 'ping');
    await drainUntil(f.worker, () => f.receiver.received.length === 1);
    const body = new Webhook(secret).verify(
      f.receiver.received[0]!.body,
      f.receiver.received[0]!.headers as Record<string, string>,
    );
    assert.equal((body as { type: string }).type, 'ping');
    assert.deepEqual((body as { data: unknown }).data, { webhook_id: id, title: new URL(f.endpoint).host });
    assert.equal(f.receiver.ids()[0], res.body.delivery.id);
  });

  it('fails queued deliveries of a webhook disabled since, without sending them', async () => {
    const { id } = await f.hook();
    await f.created();
    await f.api.patch(`/webhooks/${id}`, { enabled: false }).expect(200);
    await drainUntil(f.worker, async () => (await f.deliveriesOf(id, '?status=failed')).total === 1);
    assert.equal(f.receiver.received.length, 0);
    const [d] = (await f.deliveriesOf(id)).deliveries;
    assert.match(d.last_attempt.error, /not sent: the webhook is disabled/);
  });

  it('pages the delivery log newest first with limit and after, and expires finished deliveries by TTL', async () => {
    const { id } = await f.hook();
    for (let i = 0; i < 5; i++) await f.created();
    await drainUntil(f.worker, () => f.receiver.received.length === 5);
    const all = (await f.deliveriesOf(id)).deliveries.map((d: { id: string }) => d.id);
    assert.equal(all.length, 5);
    assert.deepEqual([...all].sort().reverse(), all);
    const first = await f.deliveriesOf(id, '?limit=2');
    assert.equal(first.total, 5);
    assert.deepEqual(
      first.deliveries.map((d: { id: string }) => d.id),
      all.slice(0, 2),
    );
    const next = await f.deliveriesOf(id, `?limit=2&after=${all[1]}`);
    assert.deepEqual(
      next.deliveries.map((d: { id: string }) => d.id),
      all.slice(2, 4),
    );
    const doc = await deliveriesCollection(f.h.db).findOne({});
    assert.ok(doc?.expires_at && doc.finished_at);
    assert.equal(doc.expires_at.getTime() - doc.finished_at.getTime(), 30 * 86_400_000);
    const indexes = await deliveriesCollection(f.h.db).indexes();
    const ttl = indexes.find((i) => i.name === 'expiry');
    assert.deepEqual(ttl?.key, { expires_at: 1 });
    assert.equal(ttl.expireAfterSeconds, 0);
  });
});
