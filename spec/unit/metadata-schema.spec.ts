import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import type { Metafield } from '../../lib/types/metafield.js';
import { HEX_A, HEX_B, bad, check, mf } from '../support/metadata-helpers.js';
import {
  METADATA_VALIDATOR_CACHE_LIMIT,
  MetadataValidators,
  metadataJsonSchema,
  type MetadataValidator,
} from '../../lib/metafields/metadata-schema.js';

interface TypeCase {
  field: Metafield;
  valid: unknown[];
  invalid: Array<[unknown, string]>;
}

const COLORS = [
  { key: 'red', value: 'Red' },
  { key: 'blue', value: 'Blue' },
];

const CASES: TypeCase[] = [
  { field: mf('text', 't'), valid: ['Hello'], invalid: [[5, 'must be a string']] },
  {
    field: mf('textarea', 'ta', { maxlength: 5 }),
    valid: ['abc', 'ééééé'],
    invalid: [['abcdef', 'must NOT have more than 5 characters']],
  },
  { field: mf('html-textarea', 'h'), valid: ['<p>x</p>'], invalid: [[['x'], 'must be a string']] },
  {
    field: mf('markdown', 'md', { minlength: 3 }),
    valid: ['# hi'],
    invalid: [['ab', 'must NOT have fewer than 3 characters']],
  },
  {
    field: mf('select-dropdown', 'color', { options: COLORS }),
    valid: ['red', 'Blue'],
    invalid: [['green', 'must be one of the option keys or values: "red", "blue", "Red", "Blue"']],
  },
  {
    field: mf('object', 'author', { object_type: 'authors' }),
    valid: [HEX_A, HEX_A.toUpperCase()],
    invalid: [
      ['abc', 'must be an Object id (24 hexadecimal characters)'],
      [{ id: HEX_A }, 'must be an Object id (24 hexadecimal characters)'],
    ],
  },
  {
    field: mf('objects', 'related'),
    valid: [[HEX_A, HEX_B], []],
    invalid: [
      [[HEX_A, HEX_A], 'must be an array of distinct Object ids (24 hexadecimal characters each)'],
      [[HEX_A, 'nope'], 'must be an array of distinct Object ids (24 hexadecimal characters each)'],
      [`${HEX_A},${HEX_B}`, 'must be an array of distinct Object ids (24 hexadecimal characters each)'],
    ],
  },
  {
    field: mf('file', 'image'),
    valid: ['photo.jpg'],
    invalid: [[42, 'must be the name of a media item (a non-empty string)']],
  },
  {
    field: mf('date', 'when'),
    valid: ['2024-02-29', '1999-12-31'],
    invalid: [
      ['2023-02-29', 'must be a calendar date in the form YYYY-MM-DD'],
      ['2024-2-01', 'must be a calendar date in the form YYYY-MM-DD'],
      ['2024-13-01', 'must be a calendar date in the form YYYY-MM-DD'],
      ['2024-01-01T00:00:00Z', 'must be a calendar date in the form YYYY-MM-DD'],
    ],
  },
  {
    field: mf('radio-buttons', 'size', { options: [{ value: 'S' }, { value: 'M' }] }),
    valid: ['M'],
    invalid: [['XL', 'must be one of the option values: "S", "M"']],
  },
  {
    field: mf('check-boxes', 'tags', { options: [{ value: 'a' }, { value: 'b' }] }),
    valid: [['a', 'b'], []],
    invalid: [
      [['a', 'c'], 'must be an array of option values, each one of: "a", "b"'],
      ['a', 'must be an array of option values, each one of: "a", "b"'],
    ],
  },
  {
    field: mf('repeater', 'gallery', { repeater_fields: [mf('text', 'caption')] }),
    valid: [[{ caption: 'x' }, { caption: '' }], []],
    invalid: [
      ['x', 'must be an array of objects keyed by its repeater_fields keys'],
      [['x'], 'must be an array of objects keyed by its repeater_fields keys'],
    ],
  },
  {
    field: mf('parent', 'seo', { children: [mf('text', 'subtitle')] }),
    valid: [{ subtitle: 'x' }, {}],
    invalid: [
      [5, "must be an object keyed by its children's keys"],
      [[], "must be an object keyed by its children's keys"],
    ],
  },
  {
    field: mf('json', 'data', { required: true }),
    valid: [{ a: [1, { b: null }] }, 5, false, []],
    invalid: [
      ['', 'a value is required'],
      [null, 'a value is required'],
    ],
  },
  {
    field: mf('switch', 'on', { options: 'true,false' }),
    valid: [true, false],
    invalid: [['true', 'must be a boolean']],
  },
  { field: mf('number', 'price'), valid: [0, -1.5, 1e9], invalid: [['5', 'must be a number']] },
];

describe('metadata validation', () => {
  it('covers all 16 Metafield types', () => {
    assert.equal(new Set(CASES.map((c) => c.field.type)).size, 16);
  });

  for (const { field, valid, invalid } of CASES) {
    describe(`type ${field.type}`, () => {
      for (const value of valid) {
        it(`accepts ${JSON.stringify(value)}`, () => {
          assert.deepEqual(check([field], { [field.key]: value }), []);
        });
      }
      for (const [value, detail] of invalid) {
        it(`rejects ${JSON.stringify(value)}`, () => {
          assert.deepEqual(check([field], { [field.key]: value }), [bad(field.key, field.type, detail)]);
        });
      }
      if (field.type !== 'json') {
        it('accepts "" and null as empty when not required', () => {
          assert.deepEqual(check([field], { [field.key]: '' }), []);
          assert.deepEqual(check([field], { [field.key]: null }), []);
        });
      }
    });
  }

  it('rejects non-finite numbers such as Infinity', () => {
    assert.deepEqual(check([mf('number', 'price')], { price: Infinity }), [bad('price', 'number', 'must be a number')]);
  });

  it('treats json null and "" as plain values when not required', () => {
    assert.deepEqual(check([mf('json', 'data')], { data: null }), []);
    assert.deepEqual(check([mf('json', 'data')], { data: '' }), []);
  });

  it('rejects a select-dropdown with no options for any value', () => {
    const field = mf('select-dropdown', 'c', { options: [] });
    assert.deepEqual(check([field], { c: 'x' }), [
      bad('c', 'select-dropdown', 'must be one of the option keys or values: '),
    ]);
  });

  describe('required', () => {
    const fields = [mf('text', 'title', { required: true }), mf('number', 'price')];

    it('on create a required key must be present', () => {
      assert.deepEqual(check(fields, { price: 1 }), [bad('title', 'text', 'a value is required')]);
    });

    it('on create a required key cannot be empty', () => {
      assert.deepEqual(check(fields, { title: '' }), [bad('title', 'text', 'a value is required')]);
      assert.deepEqual(check(fields, { title: null }), [bad('title', 'text', 'a value is required')]);
    });

    it('on patch a missing required key is fine', () => {
      assert.deepEqual(check(fields, { price: 2 }, 'patch'), []);
      assert.deepEqual(check(fields, {}, 'patch'), []);
    });

    it('on patch a required key cannot be set to empty', () => {
      assert.deepEqual(check(fields, { title: '' }, 'patch'), [bad('title', 'text', 'a value is required')]);
    });

    it('an empty array is no value for required array types', () => {
      const tags = mf('check-boxes', 'tags', { required: true, options: [{ value: 'a' }] });
      const related = mf('objects', 'related', { required: true });
      const items = mf('repeater', 'items', { required: true, repeater_fields: [] });
      assert.deepEqual(check([tags, related, items], { tags: [], related: [], items: [] }), [
        bad('tags', 'check-boxes', 'a value is required'),
        bad('related', 'objects', 'a value is required'),
        bad('items', 'repeater', 'a value is required'),
      ]);
    });

    it('0 and false are values', () => {
      const fields2 = [mf('number', 'n', { required: true }), mf('switch', 's', { required: true, options: 'yes,no' })];
      assert.deepEqual(check(fields2, { n: 0, s: false }), []);
    });

    it('a required text shorter than minlength reports the length, an empty one the requirement', () => {
      const field = mf('text', 'code', { required: true, minlength: 3 });
      assert.deepEqual(check([field], { code: 'ab' }), [bad('code', 'text', 'must NOT have fewer than 3 characters')]);
      assert.deepEqual(check([field], { code: '' }), [bad('code', 'text', 'a value is required')]);
    });
  });

  describe('metadataJsonSchema', () => {
    const fields = [mf('text', 'title', { required: true, regex: '^a' }), mf('date', 'when')];

    it('lists required keys on create only and rejects unknown keys in both modes', () => {
      const create = metadataJsonSchema(fields, 'create') as Record<string, unknown>;
      const patch = metadataJsonSchema(fields, 'patch') as Record<string, unknown>;
      assert.deepEqual(create.required, ['title']);
      assert.equal(patch.required, undefined);
      assert.equal(create.additionalProperties, false);
      assert.equal(patch.additionalProperties, false);
    });

    it('leaves regex to code and uses the date format', () => {
      const schema = metadataJsonSchema(fields, 'create') as { properties: Record<string, unknown> };
      assert.deepEqual(schema.properties.title, { type: 'string', minLength: 1 });
      assert.deepEqual(schema.properties.when, {
        anyOf: [{ enum: ['', null] }, { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date' }],
      });
    });
  });

  describe('validator cache', () => {
    const metafields = [mf('number', 'price')];

    it('returns the same function until modified_at changes', () => {
      const validators = new MetadataValidators();
      const _id = new ObjectId();
      const first = validators.for({ _id, modified_at: new Date(1000), metafields }, 'create');
      assert.equal(validators.for({ _id, modified_at: new Date(1000), metafields }, 'create'), first);
      assert.notEqual(validators.for({ _id, modified_at: new Date(1000), metafields }, 'patch'), first);
      const changed = [mf('text', 'price')];
      const second = validators.for({ _id, modified_at: new Date(2000), metafields: changed }, 'create');
      assert.notEqual(second, first);
      assert.deepEqual(second({ price: 'now text' }), []);
    });

    it('holds the limit exactly, dropping the least recently used first', () => {
      const validators = new MetadataValidators();
      const type = (n: number) => ({
        _id: new ObjectId(n.toString(16).padStart(24, '0')),
        modified_at: new Date(0),
        metafields,
      });
      const first = validators.for(type(0), 'create');
      const others: MetadataValidator[] = [];
      for (let n = 1; n <= METADATA_VALIDATOR_CACHE_LIMIT; n++) {
        // Using the first one keeps it recent while the others age.
        assert.equal(validators.for(type(0), 'create'), first);
        others.push(validators.for(type(n), 'create'));
      }
      // One more than the limit was compiled: the type used least recently (1) had to go, no other.
      for (let n = 2; n <= METADATA_VALIDATOR_CACHE_LIMIT; n++) {
        assert.equal(validators.for(type(n), 'create'), others[n - 1], `type ${n} is still cached`);
      }
      assert.equal(validators.for(type(0), 'create'), first);
      assert.notEqual(validators.for(type(1), 'create'), others[0], 'type 1 was dropped and is compiled again');
    });

    it('is kept per instance: two apps never share compiled types', () => {
      const _id = new ObjectId();
      const a = new MetadataValidators().for({ _id, modified_at: new Date(0), metafields }, 'create');
      const b = new MetadataValidators().for(
        { _id, modified_at: new Date(0), metafields: [mf('text', 'price')] },
        'create',
      );
      assert.notDeepEqual(a({ price: 'text' }), []);
      assert.deepEqual(b({ price: 'text' }), []);
    });
  });
});
