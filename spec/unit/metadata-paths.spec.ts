import assert from 'node:assert/strict';
import type { Metafield } from '../../lib/types/metafield.js';
import { metadataPaths } from '../../lib/metafields/metadata-paths.js';
import { compileFilter } from '../../lib/query/translate-filter.js';
import { validateFilter } from '../../lib/query/validate-filter.js';
import { mf } from '../support/metadata-helpers.js';

const select = (options: Array<{ key: string; value: string }>) => mf('select-dropdown', 'c', { options });
const RED = { key: 'r', value: 'Red' };

describe('metadata query paths', () => {
  const ctx = (...types: Metafield[][]) => ({
    metadataPaths: metadataPaths(types.map((metafields) => ({ metafields }))),
  });
  const compile = (q: object, c = ctx([select([RED, { key: 'dark', value: 'Red' }])])) =>
    compileFilter(JSON.stringify(q), c);

  it('translates a select-dropdown value to every stored key answering it', () => {
    // A stored "Red" (written before keys were stored) answers value "Red" too.
    assert.deepEqual(compile({ 'metadata.c.value': 'Red' }), { 'metadata.c': { $in: ['r', 'dark', 'Red'] } });
    assert.deepEqual(compile({ 'metadata.c.value': { $in: ['Red', 'r'] } }), {
      'metadata.c': { $in: ['r', 'dark', 'Red'] },
    });
    assert.deepEqual(compile({ 'metadata.c.value': { $ne: 'Red', $nin: ['Blue'] } }), {
      'metadata.c': { $nin: ['r', 'dark', 'Red', 'Blue'] },
    });
    assert.deepEqual(compile({ 'metadata.c.value': { $eq: 'Red', $in: ['Red', 'Blue'] } }), {
      'metadata.c': { $in: ['r', 'dark', 'Red'] },
    });
  });

  it('keeps both conditions when two keys read one stored value', () => {
    assert.deepEqual(compile({ 'metadata.c.key': 'r', 'metadata.c.value': 'Red', $and: [{ title: 'x' }] }), {
      'metadata.c': 'r',
      $and: [{ 'metadata.c': { $in: ['r', 'dark', 'Red'] } }, { title: 'x' }],
    });
  });

  it('merges what Object types say of one path: keys of every option list, ids stay ids, else text', () => {
    const both = ctx([select([RED])], [select([{ key: 'rouge', value: 'Red' }])]);
    assert.deepEqual(compile({ 'metadata.c.value': 'Red' }, both), { 'metadata.c': { $in: ['r', 'Red', 'rouge'] } });
    const mixed = ctx([mf('number', 'n'), mf('object', 'o')], [mf('text', 'n'), mf('text', 'o')]);
    assert.deepEqual(validateFilter({ 'metadata.n': 'five' }, mixed), []);
    assert.deepEqual(validateFilter({ 'metadata.o': 'five' }, mixed), [
      'metadata.o: "five" is not a valid Object id (24 hexadecimal characters)',
    ]);
  });
});
