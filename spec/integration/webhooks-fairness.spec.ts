import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { deliveriesCollection, webhooksCollection, type WebhookDoc } from '../../lib/store/webhooks.js';
import { newDelivery } from '../../lib/webhooks/outbox.js';
import { waitFor } from '../support/engine-helpers.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { webhookClient } from '../support/webhook-client.js';
import { drainUntil, testWorker } from '../support/webhook-helpers.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * One Bucket's backlog to an endpoint that never answers must not hold back another Bucket's
 * deliveries, nor may a failing endpoint have its deliveries' attempts spent while it is down.
 */
describe('webhook delivery: fair shares, per-endpoint caps and pausing a failing endpoint', function () {
  this.timeout(120_000);
  let h: Harness;
  let tarpit: WebhookReceiver;
  let healthy: WebhookReceiver;

  before(async () => {
    h = await freshHarness({}, 'content_api_webhook_fairness');
    tarpit = new WebhookReceiver();
    tarpit.respond = () => 'hang';
    healthy = new WebhookReceiver();
    await Promise.all([tarpit.start(), healthy.start()]);
  });
  after(async () => {
    await Promise.all([tarpit.stop(), healthy.stop()]);
    assert.deepEqual(h.errors, []);
  });

  const apis = new Map<string, ReturnType<typeof webhookClient>>();
  async function webhookOf(slug: string, endpoint: string): Promise<WebhookDoc> {
    const api = webhookClient(h.app, await h.bucket(slug));
    apis.set(slug, api);
    const id = String(
      (await api.post('/webhooks', { endpoint, events: ['object.created'] }).expect(200)).body.webhook.id,
    );
    const doc = await webhooksCollection(h.db).findOne({ _id: new ObjectId(id) });
    assert.ok(doc);
    return doc;
  }

  /** `n` deliveries due since `since`, inserted as the outbox would have queued them. */
  async function backlog(webhook: WebhookDoc, n: number, since: Date): Promise<void> {
    const docs = Array.from({ length: n }, (_, i) =>
      newDelivery(webhook, `backlog-${webhook._id.toHexString()}-${String(i)}`, 'object.created', '{}', since),
    );
    await deliveriesCollection(h.db).insertMany(docs);
  }

  it("gives another Bucket's new delivery its first attempt while thousands are due to a tarpit", async () => {
    const slow = await webhookOf('fair-a', tarpit.url('/tarpit'));
    const other = await webhookOf('fair-b', healthy.url('/hook'));
    await backlog(slow, 3000, new Date(Date.now() - 60_000));
    await backlog(other, 1, new Date());
    const worker = testWorker(h.db, { timeoutMs: 1000, leaseMs: 3000, concurrency: 4, endpointConcurrency: 2 });
    const draining = worker.drain();
    try {
      // Oldest first, the 3,000 would take 750 s of timeouts before it.
      await waitFor(() => healthy.received.length >= 1, 10_000, "the other Bucket's delivery");
    } finally {
      await worker.stop();
      await draining;
    }
    assert.ok(tarpit.maxOpen <= 2, `at most 2 requests at once to one endpoint, saw ${String(tarpit.maxOpen)}`);
    const spent = await deliveriesCollection(h.db).countDocuments({ webhook_id: slow._id, attempt_count: { $gt: 0 } });
    assert.ok(spent < 3000, 'the backlog was not all attempted first');
  });

  it('pauses an endpoint after failed attempts in a row, spends none of its waiting deliveries, and resumes on success', async () => {
    // Only this endpoint's requests: the last test's worker may have stopped after its delivery to
    // /hook landed but before recording it, so its lease runs out and this worker sends it again
    // (deliveries are at least once).
    const attempts = () => healthy.received.filter((r) => r.path === '/failing').length;
    healthy.respond = () => 500;
    const hook = await webhookOf('fair-c', healthy.url('/failing'));
    await backlog(hook, 30, new Date(Date.now() - 1000));
    let clock = new Date();
    const settings = { concurrency: 4, endpointConcurrency: 1, pauseAfterFailures: 3, pauseMs: 60_000 };
    const worker = testWorker(h.db, settings, { now: () => clock });
    await worker.drain();
    assert.equal(attempts(), 3, 'three attempts, then the pause');
    const paused = await webhooksCollection(h.db).findOne({ _id: hook._id });
    const breaker = paused?.breaker;
    assert.ok(breaker);
    assert.equal(breaker.failures, 3);
    assert.ok(breaker.open_until && breaker.open_until > clock);
    const shown = await apis.get('fair-c')!.get(`/webhooks/${hook._id.toHexString()}`).expect(200);
    assert.equal(shown.body.webhook.paused_until, breaker.open_until.toISOString());
    const untouched = await deliveriesCollection(h.db).countDocuments({
      webhook_id: hook._id,
      attempt_count: 0,
      tries: 0,
    });
    assert.equal(untouched, 27, 'the waiting deliveries kept every attempt');
    // While paused, a drain sends nothing to it.
    await worker.drain();
    assert.equal(attempts(), 3);

    healthy.respond = () => 204;
    clock = new Date(clock.getTime() + 61_000);
    await drainUntil(
      worker,
      async () =>
        (await deliveriesCollection(h.db).countDocuments({ webhook_id: hook._id, status: 'delivered' })) === 30,
    );
    const resumed = await webhooksCollection(h.db).findOne({ _id: hook._id });
    assert.deepEqual(resumed?.breaker, { failures: 0, open_until: null });
    assert.equal(attempts(), 33);
  });
});
