import assert from 'node:assert/strict';
import type { MetafieldType } from '../../lib/types/metafield.js';
import { numberOf, switchOf, typedBodyValue, typedQueryValue } from '../../lib/api/legacy/v1/string-values.js';

describe('v1 string values read by Metafield kind', () => {
  const query = (raw: string, kinds?: MetafieldType[]) => {
    const problems: string[] = [];
    const value = typedQueryValue(
      'metadata[k]',
      'k',
      raw,
      kinds && new Set(kinds),
      (r) => `text:${r}`,
      (p) => {
        problems.push(p);
      },
    );
    return { value, problems };
  };

  it('numberOf and switchOf read only what the string spells', () => {
    assert.deepEqual(['7', ' 2.5 ', '-1e3', '', ' ', 'abc', 'Infinity', '1e'].map(numberOf), [
      7,
      2.5,
      -1000,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    assert.deepEqual(['true', 'yes', 'false', 'no', 'True', '1', ''].map(switchOf), [
      true,
      true,
      false,
      false,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('typedBodyValue types number and switch strings, leaves the rest (and "") as sent', () => {
    assert.equal(typedBodyValue('number', '7'), 7);
    assert.equal(typedBodyValue('number', 'seven'), 'seven');
    assert.equal(typedBodyValue('number', ''), '');
    assert.equal(typedBodyValue('switch', 'no'), false);
    assert.equal(typedBodyValue('text', '7'), '7');
    assert.equal(typedBodyValue(undefined, '7'), '7');
    assert.equal(typedBodyValue('number', 7), 7);
  });

  it('typedQueryValue: one reading per kind, text as the caller reads it, a problem only when no kind reads it', () => {
    assert.deepEqual(query('5', ['number']), { value: 5, problems: [] });
    assert.deepEqual(query('yes', ['switch']), { value: true, problems: [] });
    // A key no type defines may be an Object's own Metafield of any kind.
    assert.deepEqual(query('5'), { value: { $in: ['5', 5] }, problems: [] });
    assert.deepEqual(query('yes'), { value: { $in: ['yes', true] }, problems: [] });
    assert.deepEqual(query('high'), { value: 'text:high', problems: [] });
    assert.deepEqual(query('5', ['text']), { value: 'text:5', problems: [] });
    assert.deepEqual(query('5', ['number', 'text']), { value: { $in: ['5', 5] }, problems: [] });
    assert.deepEqual(query('high', ['number', 'text']), { value: 'text:high', problems: [] });
    const bad = query('high', ['number']);
    assert.deepEqual(bad.problems, ['metadata[k]: "high" is not a number (k is a number)']);
    const both = query('maybe', ['number', 'switch']);
    assert.deepEqual(both.problems, [
      'metadata[k]: "maybe" is not a number (k is a number), is not true or false (k is a switch)',
    ]);
  });
});
