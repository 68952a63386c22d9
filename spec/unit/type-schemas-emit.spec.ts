import assert from 'node:assert/strict';
import type { ObjectTypeDoc } from '../../lib/db/collections.js';
import { bucketDocument } from '../../lib/openapi/bucket-document.js';
import { openApiDocument } from '../../lib/openapi/document.js';
import { typeSchemaNames } from '../../lib/openapi/type-schemas.js';
import { typeOf, typeScriptOfDocument } from '../../lib/openapi/typescript.js';

const NUMBER = { type: 'number', title: 'N', key: 'n' };

describe('per-type schema names and their TypeScript', () => {
  it('names each type apart, slugs that spell alike included', () => {
    const names = typeSchemaNames(['blog-posts', 'a-1', 'a1', '9']);
    assert.equal(names.get('blog-posts')?.object, 'Object_BlogPosts');
    assert.equal(names.get('a-1')?.create, 'ObjectCreate_A1');
    assert.equal(names.get('a1')?.create, 'ObjectCreate_A1_2');
    assert.equal(names.get('9')?.metadata, 'Metadata_9');
  });

  it('writes the JSON Schema the service generates as TypeScript types', () => {
    const cases: Array<[unknown, string]> = [
      [{ anyOf: [{ enum: ['', null] }, { type: 'number' }] }, '"" | null | number'],
      [
        { allOf: [{ $ref: '#/components/schemas/Object' }, { anyOf: [{ type: 'string' }, { type: 'null' }] }] },
        'ApiObject & (string | null)',
      ],
      [{ type: 'string', not: {} }, 'never'],
      [
        { allOf: [{ $ref: '#/components/schemas/Part' }], required: ['id'], properties: { t: { const: 'p' } } },
        'Part & {\n  t?: "p";\n  id: unknown;\n}',
      ],
      [{ const: 'a | b' }, '"a | b"'],
      [{ type: ['string', 'null'] }, 'string | null'],
      [{ type: 'array', items: { enum: ['x'] } }, 'Array<"x">'],
      [{}, 'unknown'],
      [
        {
          type: 'object',
          required: ['a b'],
          properties: { 'a b': { type: 'integer' }, c: true },
          additionalProperties: false,
        },
        '{\n  "a b": number;\n  c?: unknown;\n}',
      ],
      [{ type: 'object', additionalProperties: true }, '{\n  [key: string]: unknown;\n}'],
    ];
    for (const [schema, expected] of cases) assert.equal(typeOf(schema), expected, JSON.stringify(schema));
  });

  it('leaves the served document as it is for a Bucket without types, and never changes the shared base', () => {
    const base = openApiDocument('http://api.test');
    const before = JSON.stringify(base);
    const empty = bucketDocument(base, 'b', []);
    assert.deepEqual(empty.paths, base.paths);
    assert.deepEqual(empty['x-object-types'], {});
    assert.match(typeScriptOfDocument(empty), /export interface ObjectTypes \{\n\}/);
    // The fields the schemas read; the rest of a stored type does not matter here.
    const type = { slug: 'posts', title: 'Posts', localization: false, locales: [], metafields: [NUMBER] };
    const typed = bucketDocument(base, 'b', [type as unknown as ObjectTypeDoc]);
    assert.ok(Object.hasOwn((typed.components as { schemas: object }).schemas, 'Object_Posts'));
    assert.equal(JSON.stringify(base), before);
  });
});
