import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import type { ObjectTypeDoc } from '../../lib/db/collections.js';
import { v3ObjectBody } from '../../lib/api/legacy/v2/bodies.js';
import { metafieldPatch, metafieldsOf, metafieldsPatch } from '../../lib/api/legacy/v2/metafields.js';
import type { RenderContext } from '../../lib/render/objects.js';

describe('v2 Metafield bodies and arrays', () => {
  it('turns a metafields body into the metadata patch it means, and keeps the entries as possible own definitions', () => {
    const entries = [
      { key: 'a', type: 'text', title: 'A', value: 'x' },
      { key: 'b', value: null },
    ];
    assert.deepEqual(metafieldsPatch({ metafields: entries }), { metadata: { a: 'x', b: null }, definitions: entries });
    assert.deepEqual(metafieldPatch('a', { value: 3, type: 'number' }), {
      metadata: { a: 3 },
      definitions: [{ key: 'a', value: 3, type: 'number' }],
    });
  });

  it('refuses bodies without metafields, keys or values, naming the entry', () => {
    assert.throws(() => metafieldsPatch({}), /body\.metafields must be a non-empty array/);
    assert.throws(() => metafieldsPatch({ metafields: [] }), /non-empty/);
    assert.throws(
      () => metafieldsPatch({ metafields: [{ key: 'a', value: 1 }, { key: 'b' }] }),
      /metafields\[1\] must have a value/,
    );
    assert.throws(
      () => metafieldsPatch({ metafields: [{ value: 1 }] }),
      /metafields\[0\] must be an object with a non-empty string key/,
    );
    assert.throws(() => metafieldPatch('a', { type: 'text' }), /body\[0\] must have a value/);
    assert.throws(() => metafieldPatch('a', 'x'), /value of Metafield 'a'/);
  });

  it('sends a v2 write body with metafields on as metadata, and refuses both forms at once', () => {
    assert.deepEqual(
      v3ObjectBody({ title: 'T', type: 'posts', metafields: [{ key: 'a', type: 'text', value: 'x' }] }),
      {
        title: 'T',
        type: 'posts',
        metadata: { a: 'x' },
      },
    );
    const plain = { title: 'T', metadata: { a: 1 } };
    assert.equal(v3ObjectBody(plain), plain);
    assert.throws(() => v3ObjectBody({ metadata: {}, metafields: [] }), /metadata or as metafields, not both/);
  });

  it("lists the type's Metafields with the Object's values, null where it has none", () => {
    const metafields = [
      { type: 'text', title: 'A', key: 'a' },
      { type: 'number', title: 'B', key: 'b' },
    ] as ObjectTypeDoc['metafields'];
    const type = { _id: new ObjectId(), slug: 'posts', metafields } as Pick<
      ObjectTypeDoc,
      '_id' | 'slug' | 'metafields'
    >;
    const ctx: RenderContext = { types: new Map([['posts', type as ObjectTypeDoc]]), fileUrls: () => null };
    assert.deepEqual(metafieldsOf({ type: 'posts', metadata: { a: 'x' } }, ctx), [
      { type: 'text', title: 'A', key: 'a', value: 'x' },
      { type: 'number', title: 'B', key: 'b', value: null },
    ]);
    assert.deepEqual(metafieldsOf({ type: 'gone', metadata: {} }, ctx), []);
  });
});
