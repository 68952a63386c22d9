import assert from 'node:assert/strict';
import type { Metafield } from '../../lib/types/metafield.js';
import { effectiveMetafields, typeWithOwn } from '../../lib/metafields/own.js';

const text = (key: string, title = key): Metafield => ({ type: 'text', key, title, value: '' });

describe("an Object's own Metafields beside its type's", () => {
  it("come after the type's; a key the type defines (perhaps added later) is the type's", () => {
    const own = [text('mood', 'Own mood'), text('score')];
    const type = [text('headline'), text('mood', 'Type mood')];
    assert.deepEqual(
      effectiveMetafields(type, own).map((m) => [m.key, m.title]),
      [
        ['headline', 'headline'],
        ['mood', 'Type mood'],
        ['score', 'score'],
      ],
    );
    assert.equal(effectiveMetafields(type, undefined), type);
  });

  it('name each set of own Metafields apart, so validators compiled for one never serve another', () => {
    const type = { slug: 'notes', metafields: [text('headline')] };
    assert.equal(typeWithOwn(type, undefined), type);
    assert.equal(typeWithOwn(type, []), type);
    const a = typeWithOwn(type, [text('mood')]);
    const b = typeWithOwn(type, [text('mood', 'Mood')]);
    assert.deepEqual(
      a.metafields.map((m) => m.key),
      ['headline', 'mood'],
    );
    assert.ok(a.own_variant && b.own_variant && a.own_variant !== b.own_variant);
    assert.equal(typeWithOwn(type, [text('mood')]).own_variant, a.own_variant);
  });
});
