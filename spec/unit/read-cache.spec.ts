import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ReadCache } from '../../lib/cache/read-cache.js';

/** A body of `bytes` bytes as the cache counts them (two per UTF-16 code unit). */
const body = (bytes: number, fill = 'x') => fill.repeat(bytes / 2);
const keys = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `k${from + i}`);

/** Which of `candidates` the cache holds (reading refreshes them, oldest first, so order is kept). */
function held(cache: ReadCache, candidates: string[]): string[] {
  return candidates.filter((k) => cache.get(k) !== undefined);
}

describe('ReadCache eviction', () => {
  // 400 bytes: eight 50-byte entries fit exactly; an entry may be at most 100 bytes.
  const full = () => {
    const cache = new ReadCache(400);
    for (const k of keys(8)) cache.set(k, body(50, k.slice(1)));
    return cache;
  };

  it('keeps entries up to its bound exactly and answers them back', () => {
    const cache = full();
    assert.equal(cache.get('k3'), body(50, '3'));
    assert.equal(cache.get('missing'), undefined);
    assert.deepEqual(held(cache, keys(8)), keys(8));
  });

  it('evicts the least recently used entry first; a read makes an entry recent', () => {
    const cache = full();
    cache.get('k0');
    cache.set('k8', body(50));
    assert.deepEqual(held(cache, [...keys(9)]), ['k0', ...keys(7, 2)]);
  });

  it('evicts as many entries as a larger one needs', () => {
    const cache = full();
    cache.set('big', body(100));
    assert.deepEqual(held(cache, [...keys(8), 'big']), [...keys(6, 2), 'big']);
  });

  it('counts a replaced entry at its new size only, and makes it the newest', () => {
    const cache = full();
    cache.set('k3', body(50, 'y'));
    assert.deepEqual(held(cache, keys(8)), keys(8), 'same size: nothing evicted');
    cache.set('k3', body(100, 'z'));
    assert.deepEqual(held(cache, keys(8)), keys(7, 1));
    assert.equal(cache.get('k3'), body(100, 'z'));
  });

  it('keeps no body over a quarter of its bound, evicts nothing for it, and drops what it replaces', () => {
    const cache = full();
    cache.set('huge', body(102));
    assert.equal(cache.get('huge'), undefined);
    assert.deepEqual(held(cache, keys(8)), keys(8));
    cache.set('k5', body(102));
    assert.equal(cache.get('k5'), undefined, 'the older answer is not served after a newer one');
    cache.set('k8', body(100));
    assert.deepEqual(
      held(cache, [...keys(9)]),
      keys(9).filter((k) => k !== 'k5' && k !== 'k0'),
    );
  });

  it('behaves like a least-recently-used list bounded by bytes, for any sequence of reads and writes', () => {
    const max = 200;
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.constantFrom(...keys(6)), chars: fc.nat(30) }),
      fc.record({ kind: fc.constant('get' as const), key: fc.constantFrom(...keys(6)) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const cache = new ReadCache(max);
        // Oldest first.
        let model: Array<[string, string]> = [];
        const size = (entries: Array<[string, string]>) => entries.reduce((n, [, v]) => n + v.length * 2, 0);
        ops.forEach((o, i) => {
          const found = model.find(([k]) => k === o.key);
          model = model.filter(([k]) => k !== o.key);
          if (o.kind === 'get') {
            assert.equal(cache.get(o.key), found?.[1]);
            if (found) model.push(found);
            return;
          }
          const value = String(i % 10).repeat(o.chars);
          cache.set(o.key, value);
          if (value.length * 2 <= max / 4) model.push([o.key, value]);
          while (size(model) > max) model.shift();
        });
        const kept = keys(6).flatMap((k) => {
          const v = cache.get(k);
          return v === undefined ? [] : [[k, v] as [string, string]];
        });
        assert.ok(size(kept) <= max, `holds ${size(kept)} bytes`);
        assert.deepEqual(new Map(kept), new Map(model));
      }),
      { numRuns: 500 },
    );
  });
});
