import assert from 'node:assert/strict';
import { typeSchemaNames } from '../../lib/openapi/type-schemas.js';
import { typeOf } from '../../lib/openapi/typescript.js';

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
});
