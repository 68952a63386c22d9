import assert from 'node:assert/strict';
import { PerClientLimit } from '../../lib/http/per-client-limit.js';
import { SaturatedError, Semaphore } from '../../lib/util/semaphore.js';

/** A promise and the function that settles it, to hold work open from the test. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('Semaphore', () => {
  it('runs at most `concurrent` at once and hands turns over in arrival order', async () => {
    const s = new Semaphore({ concurrent: 2, waiting: 10, maxWaitMs: 5000 });
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      s.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    await tick();
    assert.deepEqual(started, [0, 1]);
    assert.equal(s.active, 2);
    assert.equal(s.queued, 2);
    gates[1]!.open();
    await tick();
    assert.deepEqual(started, [0, 1, 2]);
    for (const g of gates) g.open();
    assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3]);
    assert.equal(s.active, 0);
  });

  it('refuses at once when the queue is full', async () => {
    const s = new Semaphore({ concurrent: 1, waiting: 1, maxWaitMs: 5000 });
    const held = gate();
    const first = s.run(() => held.promise);
    const second = s.run(() => Promise.resolve('second'));
    await assert.rejects(
      s.run(() => Promise.resolve('third')),
      (err: unknown) => err instanceof SaturatedError && err.reason === 'queue full',
    );
    held.open();
    await first;
    assert.equal(await second, 'second');
  });

  it('refuses a caller that waited too long, and frees its place in the queue', async () => {
    const s = new Semaphore({ concurrent: 1, waiting: 1, maxWaitMs: 30 });
    const held = gate();
    const first = s.run(() => held.promise);
    await assert.rejects(
      s.run(() => Promise.resolve()),
      (err: unknown) => err instanceof SaturatedError && err.reason === 'wait timed out',
    );
    assert.equal(s.queued, 0);
    const later = s.run(() => Promise.resolve('later'));
    held.open();
    await first;
    assert.equal(await later, 'later');
  });

  it('refuses at once a caller whose own deadline has passed, and waits at most what is left of it', async () => {
    const s = new Semaphore({ concurrent: 1, waiting: 5, maxWaitMs: 60_000 });
    const held = gate();
    const first = s.run(() => held.promise);
    await assert.rejects(
      s.run(() => Promise.resolve('late'), 0),
      (err: SaturatedError) => err.reason === 'wait timed out',
    );
    await assert.rejects(
      s.run(() => Promise.resolve('short'), 1),
      (err: SaturatedError) => err.reason === 'wait timed out',
    );
    assert.equal(s.queued, 0);
    held.open();
    await first;
  });

  it('gives the turn back when the work fails', async () => {
    const s = new Semaphore({ concurrent: 1, waiting: 0, maxWaitMs: 100 });
    await assert.rejects(
      s.run(() => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(await s.run(() => Promise.resolve('next')), 'next');
  });
});

describe('PerClientLimit', () => {
  it('counts per client, refuses past the limit and takes each release once', () => {
    const limit = new PerClientLimit(2);
    const a1 = limit.tryAcquire('a');
    const a2 = limit.tryAcquire('a');
    assert.ok(a1 && a2);
    assert.equal(limit.tryAcquire('a'), null);
    assert.ok(limit.tryAcquire('b'), 'another client has its own count');
    a1();
    a1();
    assert.ok(limit.tryAcquire('a'));
    assert.equal(limit.tryAcquire('a'), null);
  });
});
