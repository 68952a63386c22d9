import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import type { ObjectDoc } from '../../lib/db/collections.js';
import { expandObject, type RelatedMap } from '../../lib/populate/expand.js';
import { objectDocFixture } from '../support/object-doc.js';

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
