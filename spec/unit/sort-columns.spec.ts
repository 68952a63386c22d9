import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { SortColumns } from '../../lib/cache/sort-columns.js';
import { sortKeyOf, type SortFields, type SortKey } from '../../lib/cache/sort-keys.js';

describe('SortColumns: a kept order’s sort keys packed by column (pure)', () => {
  const fields: SortFields = [
    ['metadata.v', 1],
    ['_id', 1],
  ];
  const values: unknown[] = [
    undefined,
    null,
    0,
    -2.5,
    'b',
    '',
    new ObjectId(),
    true,
    false,
    new Date(5),
    Number.MAX_VALUE,
  ];

  it('gives back every key it packed: each value and its type, the _id from the entry’s id', () => {
    const docs = values.map((v) => ({ _id: new ObjectId(), metadata: { v } }));
    const keys = docs.map((d) => sortKeyOf(d, fields) ?? assert.fail(`no key for ${String(d.metadata.v)}`));
    const columns = SortColumns.of(keys, fields);
    docs.forEach((doc, i) => {
      assert.deepEqual(columns.keyAt(i, doc._id.id), keys[i] as SortKey, `entry ${i}`);
    });
  });

  it('costs 9 bytes per key of a number, plus what strings and ObjectIds hold', () => {
    const numbers = Array.from({ length: 1000 }, (_, i) =>
      sortKeyOf({ _id: new ObjectId(), metadata: { v: i } }, fields),
    );
    assert.equal(SortColumns.of(numbers as SortKey[], fields).bytes, 9000);
    const texts = ['ab', 'c'].map((v) => sortKeyOf({ _id: new ObjectId(), metadata: { v } }, fields) as SortKey);
    const withText = SortColumns.of(texts, fields).bytes;
    assert.equal(withText, 2 * 9 + 2 * 8 + (24 + 4) + (24 + 2));
  });
});
