import assert from 'node:assert/strict';
import { bucketsCollection, type BucketDoc } from '../../lib/db/collections.js';
import { deliveriesCollection, webhooksCollection } from '../../lib/store/webhooks.js';
import { recordEvent } from '../../lib/webhooks/outbox.js';
import { bumpWebhookGeneration } from '../../lib/webhooks/outbox.js';
import { sleep, waitFor } from '../support/engine-helpers.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { webhookClient } from '../support/webhook-client.js';
import { WorkerProcess } from '../support/webhook-worker-process.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { testEngine } from '../support/test-engine.js';

const DB_NAME = 'content_api_webhook_workers';

describe('webhook delivery across processes', function () {
  this.timeout(60_000);
  let h: Harness;
  let api: ReturnType<typeof webhookClient>;
  let bucket: BucketDoc;
  let receiver: WebhookReceiver;
  let endpoint: string;
  const processes: WorkerProcess[] = [];

  before(async () => {
    h = await freshHarness({}, DB_NAME);
    api = webhookClient(h.app, await h.bucket('procs'));
    bucket = (await bucketsCollection(h.db).findOne({ slug: 'procs' }))!;
    receiver = new WebhookReceiver();
    endpoint = await receiver.start();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    receiver.respond = () => 204;
    receiver.delayMs = 0;
    await webhooksCollection(h.db).deleteMany({});
    // Removed behind the API's back, so say so as its writes do: events read webhooks by generation.
    await bumpWebhookGeneration(h.db, bucket._id);
    await deliveriesCollection(h.db).deleteMany({});
  });
  afterEach(async () => {
    for (const p of processes.splice(0)) await p.end('kill');
  });
  after(async () => {
    await receiver.stop();
    assert.deepEqual(h.errors, []);
  });

  const start = async (env: Record<string, string>) => {
    const p = await WorkerProcess.start(testEngine().uri, DB_NAME, env);
    processes.push(p);
    return p;
  };
  const record = (i: number) =>
    recordEvent(h.db, { bucket, type: 'object.created', objectType: 'posts', data: { id: `o${i}`, type: 'posts' } });

  it('two processes on one database send each of 200 deliveries exactly once', async () => {
    await api.post('/webhooks', { endpoint, events: ['object.created'] }).expect(200);
    const env = { WEBHOOK_POLL_MS: '20', WEBHOOK_CONCURRENCY: '8' };
    const [a, b] = await Promise.all([start(env), start(env)]);
    // Both poll before there is work, and answers take a while, so neither can drain it all alone
    // however unevenly a loaded machine starts them.
    receiver.delayMs = 25;
    for (let i = 0; i < 200; i++) assert.equal(await record(i), 1);
    await waitFor(() => receiver.received.length >= 200, 30_000, '200 deliveries');
    // Anything sent twice would arrive within a poll or two more.
    await sleep(300);
    const ids = receiver.ids();
    assert.equal(ids.length, 200);
    assert.equal(new Set(ids).size, 200, 'no delivery id arrived twice');
    const stored = await deliveriesCollection(h.db).find({}).toArray();
    assert.deepEqual(new Set(ids), new Set(stored.map((d) => d._id.toHexString())));
    assert.ok(stored.every((d) => d.status === 'delivered' && d.attempt_count === 1));
    const [byA, byB] = [await a.attempted(), await b.attempted()];
    assert.equal(byA + byB, 200);
    assert.ok(byA > 0 && byB > 0, `both processes delivered (${byA} and ${byB})`);
  });

  it('a delivery held by a process killed with SIGKILL arrives after its lease lapses, from the restarted process', async () => {
    const { id: hookId } = (await api.post('/webhooks', { endpoint, events: ['object.created'] }).expect(200)).body
      .webhook;
    // The first request is never answered: the process is killed while it waits.
    receiver.respond = (_req, n) => (n === 0 ? 'hang' : 200);
    await record(0);
    const env = { WEBHOOK_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_LEASE_MS: '2000' };
    const doomed = await start(env);
    await waitFor(() => receiver.received.length === 1, 10_000, 'the first attempt');
    await doomed.end('kill');
    const held = await deliveriesCollection(h.db).findOne({});
    assert.equal(held?.status, 'pending');
    assert.ok(held.claim && held.claim.until.getTime() > Date.now(), 'the dead process still holds its claim');
    assert.equal(held.attempt_count, 0, 'the killed attempt was never recorded');

    await start(env);
    await waitFor(() => receiver.received.length === 2, 10_000, 'the delivery after restart');
    assert.ok(Date.now() >= held.claim.until.getTime() - 50, 'not before the lease lapsed');
    assert.deepEqual(receiver.ids(), [held._id.toHexString(), held._id.toHexString()], 'the same delivery id');
    // The restarted process records its attempt just after the receiver has answered it.
    for (let i = 0; (await deliveriesCollection(h.db).findOne({ _id: held._id }))?.status !== 'delivered'; i++) {
      assert.ok(i < 100, 'the delivery is recorded as delivered');
      await sleep(20);
    }
    const log = (await api.get(`/webhooks/${hookId}/deliveries/${held._id.toHexString()}`).expect(200)).body.delivery;
    assert.equal(log.attempt_count, 1);
    assert.equal(log.attempts[0].status, 200);
  });
});
