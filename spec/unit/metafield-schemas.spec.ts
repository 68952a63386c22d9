import assert from 'node:assert/strict';
import { validatorFor } from '../../lib/validation/ajv.js';
import { describeAjvErrors } from '../../lib/validation/ajv-messages.js';

type Body = Record<string, unknown>;

/** The messages for `value` against `schemaId`, or [] when it is valid. */
function problems(schemaId: string, value: unknown): string[] {
  const validate = validatorFor(schemaId);
  if (validate(value)) return [];
  const lines = describeAjvErrors(validate.errors, 'body', schemaId);
  assert.ok(lines.length > 0, 'an invalid value must yield at least one message');
  return lines;
}

const mf = (type: string, extra: Body = {}): Body => ({
  type,
  title: `A ${type}`,
  key: type.replace(/-/g, '_'),
  ...extra,
});
const text = (key: string): Body => ({ type: 'text', title: key, key, value: '' });

interface TypeCase {
  valid: Body;
  invalid: Body;
  message: string;
}

const P = 'body';
const CASES = {
  text: {
    valid: mf('text', {
      value: 'hello',
      required: true,
      regex: '^h',
      regex_message: 'starts with h',
      minlength: 1,
      maxlength: 9,
    }),
    invalid: mf('text', { value: 5 }),
    message: `${P}.value must be a string for type "text"`,
  },
  textarea: {
    valid: mf('textarea', { value: '' }),
    invalid: mf('textarea'),
    message: `${P}.value is required for type "textarea"`,
  },
  'html-textarea': {
    valid: mf('html-textarea', { value: '<p>x</p>' }),
    invalid: mf('html-textarea', { value: ['x'] }),
    message: `${P}.value must be a string for type "html-textarea"`,
  },
  markdown: {
    valid: mf('markdown', { value: '# hi', helptext: 'Markdown', id: 'abc' }),
    invalid: mf('markdown', { value: '', options: [{ value: 'x' }] }),
    message: `${P}.options is only allowed for type "select-dropdown", "radio-buttons", "check-boxes" or "switch"`,
  },
  'select-dropdown': {
    valid: mf('select-dropdown', {
      value: 'a',
      options: [
        { key: 'a', value: 'A' },
        { key: 'b', value: 'B' },
      ],
    }),
    invalid: mf('select-dropdown', { value: '', options: [{ value: 'A' }] }),
    message: `${P}.options[0].key is required for type "select-dropdown"`,
  },
  'radio-buttons': {
    valid: mf('radio-buttons', { value: 'A', options: [{ value: 'A' }, { key: 'b', value: 'B' }] }),
    invalid: mf('radio-buttons', { value: 'A' }),
    message: `${P}.options is required for type "radio-buttons"`,
  },
  'check-boxes': {
    valid: mf('check-boxes', { value: ['A'], options: [{ value: 'A' }, { value: 'B' }] }),
    invalid: mf('check-boxes', { value: 'A', options: [{ value: 'A' }] }),
    message: `${P}.value must be an array of strings or "" for type "check-boxes"`,
  },
  switch: {
    valid: mf('switch', { value: true, options: 'yes,no' }),
    invalid: mf('switch', { value: false, options: 'on,off' }),
    message: `${P}.options must be one of "true,false", "yes,no" for type "switch"`,
  },
  number: {
    valid: mf('number', { value: 4.5 }),
    invalid: mf('number', { value: '42' }),
    message: `${P}.value must be a number or "" for type "number"`,
  },
  date: {
    valid: mf('date', { value: '2024-02-29' }),
    invalid: mf('date', { value: '2023-02-30' }),
    message: `${P}.value must be a "YYYY-MM-DD" date or "" for type "date"`,
  },
  json: {
    valid: mf('json', { value: { a: [1, { b: null }] } }),
    invalid: mf('json'),
    message: `${P}.value is required for type "json"`,
  },
  file: {
    valid: mf('file', { value: '', media_validation_type: 'image' }),
    invalid: mf('file', { value: '', media_validation_type: 'pdf' }),
    message: `${P}.media_validation_type must be one of "image", "video", "audio", "application", "text"`,
  },
  object: {
    valid: mf('object', { value: '', object_type: 'authors' }),
    invalid: mf('object', { value: '' }),
    message: `${P}.object_type is required for type "object"`,
  },
  objects: {
    valid: mf('objects', { value: ['id1', 'id2'], object_type: 'tags' }),
    invalid: mf('objects', { value: 'id1,id2', object_type: 'tags' }),
    message: `${P}.value must be an array of strings or "" for type "objects"`,
  },
  parent: {
    valid: mf('parent', { children: [text('a'), mf('number', { value: 1 })] }),
    invalid: mf('parent', { value: '', children: [] }),
    message: `${P}.value is not allowed for type "parent"`,
  },
  repeater: {
    valid: mf('repeater', {
      repeater_fields: [text('q')],
      children: [{ type: 'repeating_item', children: [text('q')] }],
    }),
    invalid: mf('repeater', { children: [] }),
    message: `${P}.repeater_fields is required for type "repeater"`,
  },
} satisfies Record<string, TypeCase>;

describe('Metafield schema', () => {
  it('has a case for each of the 16 types', () => {
    const types = (validatorFor('Metafield').schema as { properties: { type: { enum: string[] } } }).properties.type
      .enum;
    assert.deepEqual(Object.keys(CASES).sort(), [...types].sort());
    assert.equal(types.length, 16);
  });

  for (const [type, c] of Object.entries(CASES)) {
    it(`accepts a valid "${type}" definition`, () => {
      assert.deepEqual(problems('Metafield', c.valid), []);
    });
    it(`rejects an invalid "${type}" definition with one clear message`, () => {
      assert.deepEqual(problems('Metafield', c.invalid), [c.message]);
    });
  }

  it('always accepts "" as value for types that take a value', () => {
    for (const [type, c] of Object.entries(CASES)) {
      if (type === 'parent' || type === 'repeater') continue;
      assert.deepEqual(problems('Metafield', { ...c.valid, value: '' }), [], type);
    }
  });

  it('rejects an unknown field, on every type', () => {
    assert.deepEqual(problems('Metafield', { ...CASES.text.valid, colour: 'red' }), ['unknown field "colour" in body']);
    assert.deepEqual(problems('Metafield', { ...CASES.parent.valid, colour: 'red' }), [
      'unknown field "colour" in body',
    ]);
  });

  it('requires type, title and key, and checks the key characters', () => {
    assert.deepEqual(problems('Metafield', {}), [
      'body.type is required',
      'body.title is required',
      'body.key is required',
    ]);
    assert.deepEqual(problems('Metafield', { type: 'text', title: '', key: 'a.b', value: '' }), [
      'body.title must not be empty',
      'body.key "a.b" must be made of letters, digits, "_" and "-"',
    ]);
  });

  it('reports an unknown type once, without per-type noise', () => {
    const lines = problems('Metafield', { type: 'colour', title: 'C', key: 'c', options: 'x', children: [] });
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^body\.type must be one of "text", /);
  });

  it('keeps relationship, repeater, parent, file and length fields to their types', () => {
    assert.deepEqual(
      problems(
        'Metafield',
        mf('number', {
          value: 1,
          object_type: 'x',
          repeater_fields: [],
          children: [],
          media_validation_type: 'image',
          maxlength: 3,
        }),
      ),
      [
        'body.object_type is only allowed for type "object" or "objects"',
        'body.repeater_fields is only allowed for type "repeater"',
        'body.children is only allowed for type "repeater" or "parent"',
        'body.media_validation_type is only allowed for type "file"',
        'body.maxlength is only allowed for type "text", "textarea", "html-textarea" or "markdown"',
      ],
    );
  });

  it('allows regex on string- and number-valued types only', () => {
    assert.deepEqual(problems('Metafield', mf('number', { value: 1, regex: '^\\d+$', regex_message: 'digits' })), []);
    assert.deepEqual(
      problems('Metafield', mf('check-boxes', { value: [], options: [], regex: 'x', regex_message: 'm' })),
      [
        'body.regex is only allowed for type "text", "textarea", "html-textarea", "select-dropdown", "object", "file", "date", "radio-buttons", "markdown" or "number"',
        'body.regex_message is only allowed for type "text", "textarea", "html-textarea", "select-dropdown", "object", "file", "date", "radio-buttons", "markdown" or "number"',
      ],
    );
  });

  it('rejects negative and fractional lengths', () => {
    assert.deepEqual(problems('Metafield', mf('text', { value: '', minlength: -1, maxlength: 1.5 })), [
      'body.minlength must be >= 0',
      'body.maxlength must be an integer',
    ]);
  });

  it('validates nested Metafields in children, repeater_fields and repeating items', () => {
    assert.deepEqual(problems('Metafield', mf('parent', { children: [mf('date', { value: 'soon' })] })), [
      'body.children[0].value must be a "YYYY-MM-DD" date or "" for type "date"',
    ]);
    assert.deepEqual(
      problems('Metafield', mf('repeater', { repeater_fields: [mf('text', { value: '', extra: 1 })] })),
      ['unknown field "extra" in body.repeater_fields[0]'],
    );
    assert.deepEqual(
      problems(
        'Metafield',
        mf('repeater', { repeater_fields: [], children: [{ type: 'item', children: [mf('text')] }] }),
      ),
      [
        'body.children[0].type must be "repeating_item" for type "repeater"',
        'body.children[0].children[0].value is required for type "text"',
      ],
    );
  });

  it('accepts an empty repeater_fields array', () => {
    assert.deepEqual(problems('Metafield', mf('repeater', { repeater_fields: [] })), []);
  });
});

describe('ObjectTypeCreate schema', () => {
  const full = {
    title: 'Posts',
    slug: 'blog-posts-2',
    singular: 'Post',
    emoji: '📝',
    singleton: false,
    metafields: [CASES.text.valid, CASES['select-dropdown'].valid],
    options: { slug_field: false, content_editor: 1 },
    localization: true,
    locales: ['en', 'fr'],
    priority_locale: 'en',
    preview_link: 'https://example.com/[object_slug]',
    extensions: { any: ['thing'] },
    order: 3,
  };

  it('accepts every documented field', () => {
    assert.deepEqual(problems('ObjectTypeCreate', full), []);
    assert.deepEqual(problems('ObjectTypeCreate', { title: 'Posts', priority_locale: null, extensions: null }), []);
  });

  it('requires a non-empty title', () => {
    assert.deepEqual(problems('ObjectTypeCreate', { slug: 'posts' }), ['body.title is required']);
    assert.deepEqual(problems('ObjectTypeCreate', { title: '' }), ['body.title must not be empty']);
  });

  it('rejects unknown fields at the top level and in options', () => {
    assert.deepEqual(problems('ObjectTypeCreate', { title: 'T', id: 'x', options: { slug_field: true, hidden: 1 } }), [
      'unknown field "id" in body',
      'unknown field "hidden" in body.options',
    ]);
  });

  it('accepts options as booleans or 0/1 only', () => {
    assert.deepEqual(
      problems('ObjectTypeCreate', { title: 'T', options: { slug_field: 0, content_editor: true } }),
      [],
    );
    assert.deepEqual(problems('ObjectTypeCreate', { title: 'T', options: { slug_field: 2 } }), [
      'body.options.slug_field must be one of true, false, 0, 1',
    ]);
  });

  it('restricts slug to lowercase letters, digits and hyphens', () => {
    assert.deepEqual(problems('ObjectTypeCreate', { title: 'T', slug: 'Blog_Posts' }), [
      'body.slug "Blog_Posts" must be made of lowercase letters, digits and hyphens',
    ]);
  });

  it('requires non-empty locales when localization is true', () => {
    assert.deepEqual(problems('ObjectTypeCreate', { title: 'T', localization: true }), [
      'body.locales is required when localization is true',
    ]);
    assert.deepEqual(problems('ObjectTypeCreate', { title: 'T', localization: true, locales: [] }), [
      'body.locales must not be empty when localization is true',
    ]);
    assert.deepEqual(problems('ObjectTypeCreate', { title: 'T', localization: true, locales: ['en'] }), []);
    assert.deepEqual(problems('ObjectTypeCreate', { title: 'T', localization: false }), []);
  });

  it('wants unique, non-empty locale codes', () => {
    assert.deepEqual(problems('ObjectTypeCreate', { title: 'T', locales: ['en', 'en', ''] }), [
      'body.locales[2] must not be empty',
      'body.locales must not contain duplicates (items 0 and 1 are equal)',
    ]);
  });

  it('names the Metafield path of a nested problem', () => {
    assert.deepEqual(
      problems('ObjectTypeCreate', {
        title: 'T',
        metafields: [CASES.text.valid, mf('select-dropdown', { value: '' })],
      }),
      ['body.metafields[1].options is required for type "select-dropdown"'],
    );
  });
});

describe('ObjectTypePatch schema', () => {
  it('accepts any single field, requires none', () => {
    assert.deepEqual(problems('ObjectTypePatch', { singular: 'Post' }), []);
    assert.deepEqual(problems('ObjectTypePatch', { metafields: [] }), []);
  });

  it('rejects an empty body and unknown fields', () => {
    assert.deepEqual(problems('ObjectTypePatch', {}), ['body must have at least one field']);
    assert.deepEqual(problems('ObjectTypePatch', { type: 'posts' }), ['unknown field "type" in body']);
  });

  it('leaves localization without locales to the merged check, but rejects locales: []', () => {
    assert.deepEqual(problems('ObjectTypePatch', { localization: true }), []);
    assert.deepEqual(problems('ObjectTypePatch', { localization: true, locales: [] }), [
      'body.locales must not be empty when localization is true',
    ]);
  });
});

describe('Object type response schemas', () => {
  const rendered = {
    id: '65f000000000000000000001',
    slug: 'posts',
    title: 'Posts',
    singular: 'Post',
    emoji: '',
    singleton: false,
    metafields: [CASES.repeater.valid],
    options: { slug_field: 1, content_editor: 0 },
    localization: false,
    locales: [],
    priority_locale: null,
    preview_link: '',
    extensions: null,
    order: 0,
    created_at: '2024-01-01T00:00:00.000Z',
    modified_at: '2024-01-01T00:00:00.000Z',
    version: '1704067200000',
  };

  it('describe a rendered Object type, single and listed', () => {
    assert.deepEqual(problems('ObjectTypeResponse', { object_type: rendered }), []);
    assert.deepEqual(problems('ObjectTypeList', { object_types: [rendered, rendered] }), []);
  });

  it('render options as 1/0, not booleans', () => {
    assert.deepEqual(problems('ObjectType', { ...rendered, options: { slug_field: true, content_editor: 0 } }), [
      'body.options.slug_field must be one of 0, 1',
    ]);
  });
});
