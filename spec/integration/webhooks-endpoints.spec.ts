import assert from 'node:assert/strict';
import { deliveriesCollection } from '../../lib/store/webhooks.js';
import { webhookFixture } from '../support/webhook-fixture.js';
import { drainUntil, testWorker } from '../support/webhook-helpers.js';

describe('webhook endpoints: timeouts and where requests may go', () => {
  const f = webhookFixture('endpoints');

  it('counts an endpoint that does not answer in time as a failed attempt', async () => {
    const local = testWorker(f.h.db, { timeoutMs: 200, retryScheduleMs: [] });
    const { id } = await f.hook();
    f.receiver.respond = () => 'hang';
    await f.created();
    await drainUntil(local, async () => (await f.deliveriesOf(id, '?status=failed')).total === 1);
    const [d] = (await f.deliveriesOf(id)).deliveries;
    assert.equal(d.last_attempt.status, null);
    assert.match(d.last_attempt.error, /no answer within 200 ms/);
    await local.stop();
  });

  it('refuses 169.254.169.254 always, and loopback unless private addresses are allowed', async () => {
    const metadata = await f.hook({ endpoint: 'http://169.254.169.254/latest/meta-data/' });
    const strict = testWorker(f.h.db, { allowPrivate: false, retryScheduleMs: [] });
    const loopback = await f.hook({ title: 'loopback' });
    const byName = await f.hook({ title: 'by name', endpoint: f.endpoint.replace('127.0.0.1', 'localhost') });
    await f.created();
    await drainUntil(
      strict,
      async () => (await deliveriesCollection(f.h.db).countDocuments({ status: 'failed' })) === 3,
    );
    assert.equal(f.receiver.received.length, 0, 'nothing reached the receiver');
    const errorOf = async (w: { id: string }) =>
      (await f.deliveriesOf(w.id)).deliveries[0].last_attempt.error as string;
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
    await f.api
      .post(`/webhooks/${loopback.id}/deliveries/${(await f.deliveriesOf(loopback.id)).deliveries[0].id}/redeliver`, {})
      .expect(200);
    await f.api
      .post(`/webhooks/${metadata.id}/deliveries/${(await f.deliveriesOf(metadata.id)).deliveries[0].id}/redeliver`, {})
      .expect(200);
    const lenient = testWorker(f.h.db, { allowPrivate: true, retryScheduleMs: [] });
    await drainUntil(
      lenient,
      async () => (await deliveriesCollection(f.h.db).countDocuments({ status: 'pending' })) === 0,
    );
    assert.equal(f.receiver.received.length, 1);
    assert.match(await errorOf(metadata), /never allowed/);
    await strict.stop();
    await lenient.stop();
  });

  it('connects to the address it resolved and checked, sending the endpoint host in Host', async () => {
    const port = new URL(f.endpoint).port;
    await f.hook({ endpoint: `http://hooks.internal.test:${port}/in?x=1` });
    const resolved: string[] = [];
    // A name the system resolver does not know: only the checked answer can have been used.
    const pinned = testWorker(
      f.h.db,
      {},
      {
        lookup: (host) => {
          resolved.push(host);
          return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
        },
      },
    );
    await f.created();
    await drainUntil(pinned, () => f.receiver.received.length === 1);
    assert.deepEqual(resolved, ['hooks.internal.test']);
    assert.equal(f.receiver.received[0]!.headers.host, `hooks.internal.test:${port}`);
    assert.equal(f.receiver.received[0]!.path, '/in?x=1');
    await pinned.stop();
  });
});
