import assert from 'node:assert/strict';
import { webhookFixture } from '../support/webhook-fixture.js';
import { drainUntil, testWorker } from '../support/webhook-helpers.js';

const HOUR_MS = 3_600_000;

describe('webhook redelivery', () => {
  const f = webhookFixture('redeliver');

  /**
   * A worker whose clock the test moves: a retry scheduled an hour ahead falls due when the test
   * says so, not after a wall-clock wait.
   */
  function clockedWorker(schedule: number[]) {
    const clock = { offsetMs: 0 };
    const worker = testWorker(
      f.h.db,
      { retryScheduleMs: schedule },
      { now: () => new Date(Date.now() + clock.offsetMs) },
    );
    return { worker, clock };
  }

  it('sends a pending delivery once more, replacing its scheduled retry rather than adding to it', async () => {
    const { worker, clock } = clockedWorker([HOUR_MS, HOUR_MS]);
    const { id } = await f.hook();
    // Fails once, then the endpoint is fine: a retry is scheduled an hour ahead.
    f.receiver.respond = (_req, n) => (n === 0 ? 500 : 200);
    await f.created();
    await drainUntil(worker, () => f.receiver.received.length === 1);
    const [pending] = (await f.deliveriesOf(id)).deliveries;
    assert.equal(pending.status, 'pending');
    assert.ok(Date.parse(pending.next_attempt_at) > Date.now() + HOUR_MS / 2, 'the retry waits its step');

    await f.api.post(`/webhooks/${id}/deliveries/${pending.id}/redeliver`, {}).expect(200);
    await drainUntil(worker, () => f.receiver.received.length === 2);
    // Past the retry that was scheduled: nothing is due any more.
    clock.offsetMs = 3 * HOUR_MS;
    await worker.drain();
    await worker.drain();
    assert.equal(f.receiver.received.length, 2, 'the first attempt and the redelivery, no retry after it');
    const full = await f.oneDelivery(id, pending.id);
    assert.equal(full.status, 'delivered');
    assert.equal(full.attempt_count, 2);
    assert.equal(full.next_attempt_at, null);
    await worker.stop();
  });

  it('redelivers a pending delivery whose endpoint still fails in place of its retry, the round going on', async () => {
    const { worker, clock } = clockedWorker([HOUR_MS, HOUR_MS]);
    const { id } = await f.hook();
    f.receiver.respond = () => 500;
    await f.created();
    await drainUntil(worker, () => f.receiver.received.length === 1);
    const [pending] = (await f.deliveriesOf(id)).deliveries;
    await f.api.post(`/webhooks/${id}/deliveries/${pending.id}/redeliver`, {}).expect(200);
    await drainUntil(worker, () => f.receiver.received.length === 2);
    // The redelivery took the scheduled retry's place: one more try is left of the round, not two.
    clock.offsetMs = 2 * HOUR_MS;
    await drainUntil(worker, () => f.receiver.received.length === 3);
    clock.offsetMs = 10 * HOUR_MS;
    await worker.drain();
    assert.equal(f.receiver.received.length, 3);
    const full = await f.oneDelivery(id, pending.id);
    assert.equal(full.status, 'failed');
    assert.equal(full.attempt_count, 3);
    await worker.stop();
  });

  it('still gives a delivered delivery a fresh round of retries', async () => {
    const { worker, clock } = clockedWorker([HOUR_MS]);
    const { id } = await f.hook();
    await f.created();
    await drainUntil(worker, () => f.receiver.received.length === 1);
    const [delivered] = (await f.deliveriesOf(id)).deliveries;
    assert.equal(delivered.status, 'delivered');
    f.receiver.respond = () => 500;
    await f.api.post(`/webhooks/${id}/deliveries/${delivered.id}/redeliver`, {}).expect(200);
    await drainUntil(worker, () => f.receiver.received.length === 2);
    clock.offsetMs = 2 * HOUR_MS;
    await drainUntil(worker, () => f.receiver.received.length === 3);
    assert.equal((await f.oneDelivery(id, delivered.id)).status, 'failed');
    await worker.stop();
  });
});
