import assert from 'node:assert/strict';
import { LeasedBudget, type Claim } from '../../lib/limits/rate-limits.js';

/** A shared counter like the store's: atomic adds per key in one window, with a clock the test moves. */
class FakeStore {
  readonly counts = new Map<string, number>();
  readonly claims: number[] = [];
  resetAt = 60_000;

  claim: Claim = (key, units) => {
    this.claims.push(units);
    const consumed = (this.counts.get(key) ?? 0) + units;
    this.counts.set(key, consumed);
    return Promise.resolve({ consumed, resetAt: this.resetAt });
  };
}

async function admitted(budget: LeasedBudget, key: string, n: number): Promise<number> {
  let yes = 0;
  for (let i = 0; i < n; i++) if ((await budget.admit(key)).allowed) yes++;
  return yes;
}

describe('LeasedBudget: a per-key limit shared through a store, claimed in blocks', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 0;
  });

  it('admits exactly the limit for one process, then refuses without asking the store again', async () => {
    const store = new FakeStore();
    const budget = new LeasedBudget(5, store.claim, { now });
    assert.equal(await admitted(budget, 'k', 5), 5);
    const claims = store.claims.length;
    const refused = await budget.admit('k');
    assert.deepEqual(refused, { allowed: false, limit: 5, remaining: 0, resetAt: 60_000 });
    assert.equal(await admitted(budget, 'k', 10), 0);
    assert.equal(store.claims.length, claims, 'a known-empty window is refused locally');
  });

  it('never lets two processes together pass the limit, near it claiming one unit at a time', async () => {
    const store = new FakeStore();
    const a = new LeasedBudget(40, store.claim, { now });
    const b = new LeasedBudget(40, store.claim, { now });
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).admit('k')));
    assert.equal(results.filter((r) => r.allowed).length, 40);
    assert.ok(
      store.claims.every((u) => u <= 2),
      `blocks stay small near a limit of 40: ${store.claims.join(',')}`,
    );
  });

  it('far from the limit claims blocks of up to 64 ahead of need, so most requests never wait for the store', async () => {
    const store = new FakeStore();
    const budget = new LeasedBudget(100_000, store.claim, { now });
    assert.equal(await admitted(budget, 'k', 1000), 1000);
    assert.ok(store.claims.length <= 1000 / 64 + 2, `${store.claims.length} claims for 1000 requests`);
    assert.ok(store.claims.every((u) => u === 64));
    assert.equal(store.counts.get('k'), store.claims.length * 64);
  });

  it('grants the part of a late block that still fits under the limit', async () => {
    const store = new FakeStore();
    store.counts.set('k', 95); // another process used 95 of 100
    const budget = new LeasedBudget(100, store.claim, { now, maxBlock: 64 });
    // Believing all 100 free, the first claim takes a block of 6 (100/16): 5 of them fit.
    assert.equal(await admitted(budget, 'k', 10), 5);
    assert.equal(store.claims[0], 6);
  });

  it('starts afresh when the window ends', async () => {
    const store = new FakeStore();
    const budget = new LeasedBudget(3, store.claim, { now });
    assert.equal(await admitted(budget, 'k', 5), 3);
    clock = 60_000;
    store.counts.clear();
    store.resetAt = 120_000;
    const next = await budget.admit('k');
    assert.equal(next.allowed, true);
    assert.equal(next.resetAt, 120_000);
    assert.equal(next.remaining, 2);
  });

  it('keeps keys apart, and forgets ended windows first when it holds too many', async () => {
    const store = new FakeStore();
    const budget = new LeasedBudget(1, store.claim, { now, maxKeys: 2 });
    assert.equal((await budget.admit('a')).allowed, true);
    assert.equal((await budget.admit('b')).allowed, true);
    assert.equal((await budget.admit('a')).allowed, false);
    // A third key pushes out the oldest (a): its refusal is then learnt again from the store.
    assert.equal((await budget.admit('c')).allowed, true);
    const before = store.claims.length;
    assert.equal((await budget.admit('a')).allowed, false);
    assert.equal(store.claims.length, before + 1);
  });

  it('passes a store failure to the request, and claims again for the next one', async () => {
    let fail = true;
    const store = new FakeStore();
    const budget = new LeasedBudget(
      10,
      (key, units) => (fail ? Promise.reject(new Error('down')) : store.claim(key, units)),
      {
        now,
      },
    );
    await assert.rejects(budget.admit('k'), /down/);
    fail = false;
    assert.equal((await budget.admit('k')).allowed, true);
  });
});
