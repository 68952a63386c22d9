import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import type { ObjectDoc } from '../../lib/db/collections.js';
import fc from 'fast-check';
import { expandPage, type RelatedMap } from '../../lib/objects/populate/expand.js';
import { objectDocFixture } from '../support/object-doc.js';

const unlimited = { max: Number.POSITIVE_INFINITY, error: () => new Error('no limit here') };

function expandObject(doc: ObjectDoc, related: RelatedMap, depth: number): ObjectDoc {
  const [out] = expandPage([doc], related, depth, unlimited);
  assert.ok(out);
  return out;
}

/** The expansion as first written, one copy per reference: the reference the shared one must equal. */
function naiveExpand(
  doc: ObjectDoc,
  related: RelatedMap,
  depth: number,
  path: ReadonlySet<string> = new Set(),
): ObjectDoc {
  if (depth <= 0) return doc;
  const onPath = new Set(path).add(doc._id.toHexString());
  const walk = (value: unknown): unknown => {
    if (value instanceof ObjectId) {
      if (onPath.has(value.toHexString())) return value;
      const target = related.get(value.toHexString());
      return target ? naiveExpand(target, related, depth - 1, onPath) : undefined;
    }
    if (Array.isArray(value)) return value.map(walk).filter((v) => v !== undefined);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v) ?? null]));
    }
    return value;
  };
  return { ...doc, metadata: walk(doc.metadata) as Record<string, unknown> };
}

const obj = objectDocFixture;

function link(from: ObjectDoc, key: string, to: ObjectId | ObjectId[]): void {
  from.metadata[key] = to;
  from.refs.push(...(Array.isArray(to) ? to : [to]));
}

function mapOf(...docs: ObjectDoc[]): RelatedMap {
  return new Map(docs.map((d) => [d._id.toHexString(), d]));
}

const titleAt = (doc: ObjectDoc, ...path: string[]): unknown => {
  let node: unknown = doc;
  for (const p of path) node = (node as Record<string, unknown>)[p];
  return node instanceof ObjectId ? `id:${node.toHexString()}` : (node as ObjectDoc | undefined)?.title;
};

describe('relationship expansion (pure)', () => {
  it('depth 0 leaves every id in place', () => {
    const b = obj('B');
    const a = obj('A', { next: b._id });
    assert.equal(expandObject(a, mapOf(b), 0), a);
  });

  it('expands depth 1, 2 and 3 along a chain and stops there', () => {
    const d = obj('D');
    const c = obj('C', { next: d._id });
    const b = obj('B', { next: c._id });
    const a = obj('A', { next: b._id });
    const related = mapOf(b, c, d);
    const one = expandObject(a, related, 1);
    assert.equal(titleAt(one, 'metadata', 'next'), 'B');
    assert.equal(titleAt(one, 'metadata', 'next', 'metadata', 'next'), `id:${c._id.toHexString()}`);
    const three = expandObject(a, related, 3);
    assert.equal(titleAt(three, 'metadata', 'next', 'metadata', 'next', 'metadata', 'next'), 'D');
  });

  it('cuts A→B→A: the way back stays an id', () => {
    const a = obj('A');
    const b = obj('B', { back: a._id });
    link(a, 'next', b._id);
    const out = expandObject(a, mapOf(a, b), 3);
    assert.equal(titleAt(out, 'metadata', 'next'), 'B');
    assert.equal(titleAt(out, 'metadata', 'next', 'metadata', 'back'), `id:${a._id.toHexString()}`);
  });

  it('cuts a self reference', () => {
    const a = obj('A');
    link(a, 'self', [a._id]);
    const out = expandObject(a, mapOf(a), 3);
    assert.deepEqual(out.metadata.self, [a._id]);
  });

  it('expands inside parent values and repeater items', () => {
    const b = obj('B');
    const a = obj('A', { box: { inner: b._id, label: 'x' }, rows: [{ target: b._id }, { target: '' }] });
    const out = expandObject(a, mapOf(b), 1);
    assert.equal(titleAt(out, 'metadata', 'box', 'inner'), 'B');
    assert.equal((out.metadata.box as Record<string, unknown>).label, 'x');
    assert.equal(((out.metadata.rows as unknown[])[0] as { target: ObjectDoc }).target.title, 'B');
    assert.equal(((out.metadata.rows as unknown[])[1] as { target: string }).target, '');
  });

  it('drops what is not visible: null for one, left out of many', () => {
    const hidden = new ObjectId();
    const b = obj('B');
    const a = obj('A', { one: hidden, many: [b._id, hidden] });
    const related: RelatedMap = mapOf(b);
    related.set(hidden.toHexString(), null);
    const out = expandObject(a, related, 1);
    assert.equal(out.metadata.one, null);
    assert.deepEqual(
      (out.metadata.many as ObjectDoc[]).map((d) => d.title),
      ['B'],
    );
  });

  it('does not change its input', () => {
    const b = obj('B');
    const a = obj('A', { next: b._id });
    expandObject(a, mapOf(b), 2);
    assert.ok(a.metadata.next instanceof ObjectId);
  });
});

describe('relationship expansion: shared results and the occurrence limit (pure)', () => {
  /** n Objects, each related to all n (itself included, which is cut). */
  function clique(n: number): { page: ObjectDoc[]; related: RelatedMap } {
    const page = Array.from({ length: n }, (_, i) => obj(`N${i}`));
    for (const doc of page)
      link(
        doc,
        'links',
        page.map((d) => d._id),
      );
    return { page, related: mapOf(...page) };
  }

  it('expands an Object reached by many references once and shares the result', () => {
    const author = obj('Author', { avatar: obj('Image')._id });
    const posts = Array.from({ length: 5 }, (_, i) => obj(`P${i}`, { author: author._id }));
    const out = expandPage(posts, mapOf(author), 2, unlimited);
    const authors = out.map((p) => p.metadata.author);
    assert.equal(new Set(authors).size, 1, 'one shared expansion');
    assert.deepEqual(authors[0], naiveExpand(author, mapOf(author), 1));
  });

  it('does not share across paths whose cycle cuts differ', () => {
    const a = obj('A');
    const b = obj('B');
    const shared = obj('S', { up: [a._id, b._id] });
    link(a, 'child', shared._id);
    link(b, 'child', shared._id);
    const related = mapOf(a, b, shared);
    const [outA, outB] = expandPage([a, b], related, 2, unlimited);
    assert.ok(outA && outB);
    const sA = outA.metadata.child as ObjectDoc;
    const sB = outB.metadata.child as ObjectDoc;
    assert.notEqual(sA, sB);
    // Under A the way back to A is cut, B is expanded; under B the reverse.
    assert.deepEqual(
      (sA.metadata.up as unknown[]).map((u) => (u instanceof ObjectId ? 'id' : (u as ObjectDoc).title)),
      ['id', 'B'],
    );
    assert.deepEqual(
      (sB.metadata.up as unknown[]).map((u) => (u instanceof ObjectId ? 'id' : (u as ObjectDoc).title)),
      ['A', 'id'],
    );
  });

  it('does not share when a cycle two levels down returns to the path (A→X→C→A beside B→X)', () => {
    const [a, b, x, c] = ['A', 'B', 'X', 'C'].map((t) => obj(t));
    assert.ok(a && b && x && c);
    link(a, 'l', [x._id]);
    link(b, 'l', [x._id]);
    link(x, 'l', [c._id]);
    link(c, 'l', [a._id]);
    const related = mapOf(a, b, x, c);
    assert.deepEqual(
      expandPage([a, b], related, 3, unlimited),
      [a, b].map((d) => naiveExpand(d, related, 3)),
    );
  });

  it('answers exactly what one copy per reference would, on any graph', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        // Sparse graphs: in dense ones every Object reaches every other, so nothing is shared.
        fc.array(fc.tuple(fc.nat(5), fc.nat(5), fc.boolean()), { maxLength: 12 }),
        fc.uniqueArray(fc.nat(5), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(5), { maxLength: 2 }),
        (n, edges, pageIdx, hiddenIdx) => {
          const docs = Array.from({ length: n }, (_, i) => obj(`N${i}`));
          const at = (i: number): ObjectDoc => docs[i % n] ?? assert.fail('index in range');
          for (const [from, to, inParent] of edges) {
            const src = at(from).metadata;
            if (inParent) src.box = { inner: at(to)._id };
            else src.links = [...((src.links as ObjectId[] | undefined) ?? []), at(to)._id];
          }
          const related = mapOf(...docs);
          for (const h of hiddenIdx) related.set(at(h)._id.toHexString(), null);
          const page = pageIdx.map(at);
          for (const depth of [0, 1, 2, 3]) {
            assert.deepEqual(
              expandPage(page, related, depth, unlimited),
              page.map((d) => naiveExpand(d, related, depth)),
            );
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('counts every reference written out and stops at the limit', () => {
    const { page, related } = clique(30);
    // Depth 1: 30 Objects × 29 references each (the self reference is cut).
    assert.equal(expandPage(page, related, 1, { max: 870, error: () => new Error('over') }).length, 30);
    assert.throws(() => expandPage(page, related, 1, { max: 869, error: () => new Error('over') }), /over/);
  });

  it('refuses a dense fan at depth 3 after bounded work', () => {
    const { page, related } = clique(30);
    /** The related map, counting lookups: the work of an expansion, measured without a clock. */
    class Counted extends Map<string, ObjectDoc | null> {
      lookups = 0;
      override get(key: string) {
        this.lookups++;
        return super.get(key);
      }
    }
    const counted = new Counted(related);
    const max = 31_457;
    assert.throws(() => expandPage(page, counted, 3, { max, error: () => new RangeError('too many') }), RangeError);
    // Every reference followed is counted before the next, so at most max + 1 are; the cycle
    // checks are memoized per (Object, id met, depth left): 30 × 30 × 3 keys of 30 lookups each.
    // Writing out the whole tree would follow 30⁴ = 810,000 references.
    assert.ok(counted.lookups <= max + 1 + 30 * 30 * 3 * 30, `${counted.lookups} lookups`);
  });
});
