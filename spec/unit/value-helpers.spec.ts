import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { isObjectId, isObjectIdHex, objectIdFromHex } from '../../lib/util/values.js';
import { isPlainObject } from '../../lib/util/values.js';
import { quote } from '../../lib/util/quote.js';

describe('value helpers', () => {
  const hex = '65a1b2c3d4e5f6a7b8c9d0e1';

  it('quote: JSON for short values, cut to 60 characters with an ellipsis for long ones', () => {
    assert.equal(quote('abc'), '"abc"');
    assert.equal(quote(12), '12');
    assert.equal(quote(null), 'null');
    assert.equal(quote(undefined), 'undefined');
    assert.equal(quote('x'.repeat(60)), `"${'x'.repeat(60)}"`);
    assert.equal(quote('x'.repeat(61)), `"${'x'.repeat(57)}..."`);
    assert.equal(quote(['y'.repeat(100)]), `["${'y'.repeat(55)}...`);
  });

  it('quote: never cuts a character in half', () => {
    const text = `${'a'.repeat(56)}${'😀'.repeat(10)}`;
    assert.equal(quote(text), `"${'a'.repeat(56)}😀..."`);
  });

  it('Object id hex: 24 hexadecimal characters of either case, converted to an ObjectId', () => {
    assert.ok(isObjectIdHex(hex) && isObjectIdHex(hex.toUpperCase()));
    for (const bad of [hex.slice(1), `${hex}0`, `${hex.slice(1)}g`, 12, null]) assert.ok(!isObjectIdHex(bad));
    assert.equal(objectIdFromHex(hex.toUpperCase())?.toHexString(), hex);
    assert.equal(objectIdFromHex('nope'), null);
    assert.ok(isObjectId(new ObjectId(hex)));
    assert.ok(isObjectId({ _bsontype: 'ObjectId', toHexString: () => hex }));
    assert.ok(!isObjectId(hex));
  });

  it('isPlainObject: object literals, parsed JSON and prototype-less records only', () => {
    assert.ok(isPlainObject({}));
    assert.ok(isPlainObject(JSON.parse('{"a":1}')));
    assert.ok(isPlainObject(Object.create(null)));
    for (const not of [null, [], 'x', 1, new Date(), new ObjectId(hex), new Map()]) assert.ok(!isPlainObject(not));
  });
});
