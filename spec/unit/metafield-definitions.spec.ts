import assert from 'node:assert/strict';
import type { Metafield, MetafieldOf } from '../../lib/types/metafield.js';
import { METAFIELD_KINDS } from '../../lib/metafields/kinds.js';
import { checkMetafieldDefinitions, MAX_SORTABLE_METAFIELDS } from '../../lib/metafields/metafield-definitions.js';

const ctx = { ownSlug: 'posts', existingTypeSlugs: new Set(['authors', 'tags']) };
const check = (metafields: Metafield[]): string[] => checkMetafieldDefinitions(metafields, ctx);

const text = (key: string, extra: Partial<MetafieldOf<'text'>> = {}): Metafield => ({
  type: 'text',
  title: key,
  key,
  value: '',
  ...extra,
});
const parent = (key: string, children: Metafield[]): Metafield => ({ type: 'parent', title: key, key, children });
const repeater = (key: string, repeater_fields: Metafield[], items: Metafield[][] = []): Metafield => ({
  type: 'repeater',
  title: key,
  key,
  repeater_fields,
  children: items.map((children) => ({ type: 'repeating_item', children })),
});
const relation = (type: 'object' | 'objects', key: string, object_type: string): Metafield => ({
  type,
  title: key,
  key,
  value: '',
  object_type,
});

describe('checkMetafieldDefinitions', () => {
  it('finds nothing wrong with an empty or sound list', () => {
    assert.deepEqual(check([]), []);
    const sound = [
      text('headline', { sortable: true, regex: '^[A-Z]', minlength: 2, maxlength: 2 }),
      relation('object', 'author', 'authors'),
      parent('seo', [text('headline'), text('description')]),
      repeater('faq', [text('question'), text('answer')], [[text('question'), text('answer')], [text('question')]]),
    ];
    assert.deepEqual(check(sound), []);
  });

  describe('key uniqueness', () => {
    it('reports a key used twice at the top level, at its second use', () => {
      assert.deepEqual(check([text('price'), text('price')]), [
        'metafields[1].key "price" is used twice at the same level',
      ]);
    });

    it('counts a key used three times once', () => {
      assert.deepEqual(check([text('a'), text('b'), text('a'), text('a')]), [
        'metafields[2].key "a" is used 3 times at the same level',
      ]);
    });

    it('treats keys case-sensitively', () => {
      assert.deepEqual(check([text('Price'), text('price')]), []);
    });

    it("checks each parent's children as their own level", () => {
      assert.deepEqual(check([text('a'), parent('p', [text('a'), text('b')])]), []);
      assert.deepEqual(check([parent('p', [text('a'), text('a')])]), [
        'metafields[0].children[1].key "a" is used twice at the same level',
      ]);
    });

    it('checks repeater_fields and each repeating item as their own level', () => {
      assert.deepEqual(check([repeater('r', [text('q'), text('q')])]), [
        'metafields[0].repeater_fields[1].key "q" is used twice at the same level',
      ]);
      assert.deepEqual(check([repeater('r', [text('q')], [[text('q')], [text('q'), text('q')]])]), [
        'metafields[0].children[1].children[1].key "q" is used twice at the same level',
      ]);
    });
  });

  describe('object_type', () => {
    it("accepts the type itself and the Bucket's other types", () => {
      assert.deepEqual(check([relation('object', 'related', 'posts'), relation('objects', 'tags', 'tags')]), []);
    });

    it('rejects a slug that is no Object type, at any depth', () => {
      assert.deepEqual(
        check([relation('objects', 'tags', 'labels'), parent('p', [relation('object', 'o', 'nobody')])]),
        [
          'metafields[0].object_type "labels" is not an Object type in this Bucket',
          'metafields[1].children[0].object_type "nobody" is not an Object type in this Bucket',
        ],
      );
    });
  });

  describe('regex', () => {
    it('rejects a regex that does not compile, with the reason', () => {
      const [problem, ...rest] = check([text('t', { regex: '([a-z]' })]);
      assert.ok(problem, 'one problem');
      assert.deepEqual(rest, []);
      assert.match(
        problem,
        /^metafields\[0\]\.regex "\(\[a-z\]" is not a valid regular expression \(.*Unterminated group.*\)$/,
      );
    });

    it('accepts a literal with flags, as Object writes do, and judges its source', () => {
      assert.deepEqual(check([text('t', { regex: '/^[a-z]+$/i' })]), []);
      assert.equal(check([text('t', { regex: '/([a-z]/i' })]).length, 1);
    });

    it('checks regexes inside repeater_fields', () => {
      assert.equal(check([repeater('r', [text('q', { regex: '*' })])]).length, 1);
      assert.deepEqual(check([repeater('r', [text('q', { regex: '\\d+' })])]), []);
    });

    it('rejects a regex that could freeze the process, naming the Metafield and why', () => {
      assert.deepEqual(check([text('code', { regex: '^(a+)+$' })]).length, 1);
      assert.match(
        check([text('code', { regex: '^(a+)+$' })])[0]!,
        /^metafields\[0\]\.regex of Metafield "code" is not allowed: nested quantifiers/,
      );
      assert.match(
        check([text('code', { regex: '/(a)\\1/i' })])[0]!,
        /Metafield "code" is not allowed: back-references/,
      );
      assert.match(
        check([parent('p', [text('deep', { regex: '(?=x)y' })])])[0]!,
        /^metafields\[0\]\.children\[0\]\.regex of Metafield "deep".*look-around/,
      );
      assert.match(
        check([text('long', { regex: 'a'.repeat(1001) })])[0]!,
        /Metafield "long" is not allowed: longer than 1000 characters/,
      );
    });

    it('rejects alternatives that repeat alike, and what the linear-time engine cannot run', () => {
      assert.match(
        check([text('code', { regex: '^(a|a)*$' })])[0]!,
        /^metafields\[0\]\.regex of Metafield "code" is not allowed: \(a\|a\)\* repeats alternatives/,
      );
      assert.match(
        check([text('name', { regex: '/^\\p{Letter}+$/u' })])[0]!,
        /Metafield "name" is not allowed: cannot run on the linear-time engine/,
      );
      assert.deepEqual(check([text('name', { regex: '/^\\p{L}+$/u' })]), []);
    });
  });

  describe('keys and nesting', () => {
    it('rejects keys naming members of every JavaScript object, naming the key', () => {
      assert.deepEqual(check([text('__proto__'), parent('p', [text('constructor')]), text('prototype')]), [
        'metafields[0].key "__proto__" is reserved: it names a property of every JavaScript object',
        'metafields[1].children[0].key "constructor" is reserved: it names a property of every JavaScript object',
        'metafields[2].key "prototype" is reserved: it names a property of every JavaScript object',
      ]);
    });

    /** `levels` levels of Metafields: parents around one text Metafield, alternating with repeaters. */
    function nestedDefinition(levels: number): Metafield[] {
      let inner: Metafield[] = [text('leaf')];
      for (let i = levels - 1; i >= 1; i--) inner = [i % 2 ? parent(`p${i}`, inner) : repeater(`r${i}`, inner)];
      return inner;
    }

    it('allows 8 levels of parents and repeaters and names the list that goes deeper', () => {
      assert.deepEqual(check(nestedDefinition(8)), []);
      const problems = check(nestedDefinition(9));
      assert.equal(problems.length, 1);
      assert.match(
        problems[0]!,
        /^metafields\[0\](\.(children|repeater_fields)\[0\]){7}\.(children|repeater_fields) nests Metafields deeper than 8 levels/,
      );
    });

    it('bounds a json default value like a stored one', () => {
      let deep: unknown = 1;
      for (let i = 0; i < 40; i++) deep = [deep];
      const json = (value: unknown): Metafield => ({ type: 'json', title: 'j', key: 'j', value });
      assert.deepEqual(check([json({ fine: { nested: [1, 2] } })]), []);
      assert.match(check([json(deep)])[0]!, /^metafields\[0\]\.value(\[0\]){32} is nested deeper than 32 levels$/);
      assert.deepEqual(check([json({ a: { 'x.y': 1 } })]), [
        'metafields[0].value.a: key "x.y" may not start with "$" or contain "." or a NUL character',
      ]);
    });
  });

  describe('minlength and maxlength', () => {
    it('rejects minlength above maxlength', () => {
      assert.deepEqual(check([text('t', { minlength: 10, maxlength: 5 })]), [
        'metafields[0].minlength (10) is greater than maxlength (5)',
      ]);
    });

    it('allows either alone, and equal values', () => {
      assert.deepEqual(
        check([text('a', { minlength: 10 }), text('b', { maxlength: 0 }), text('c', { minlength: 3, maxlength: 3 })]),
        [],
      );
    });
  });

  describe('sortable', () => {
    it(`allows ${MAX_SORTABLE_METAFIELDS} sortable Metafields and rejects a third, listing them`, () => {
      const two: Metafield[] = [
        text('a', { sortable: true }),
        text('b', { sortable: false }),
        { type: 'number', title: 'n', key: 'n', value: 0, sortable: true },
      ];
      assert.deepEqual(check(two), []);
      assert.deepEqual(check([...two, text('c', { sortable: true })]), [
        'at most 2 Metafields of an Object type may be sortable, found 3: metafields[0] ("a"), metafields[2] ("n"), metafields[3] ("c")',
      ]);
    });

    it('only allows sortable on top-level Metafields', () => {
      assert.deepEqual(check([parent('p', [text('a', { sortable: true }), text('b', { sortable: false })])]), [
        'metafields[0].children[0].sortable is only allowed on top-level Metafields',
      ]);
    });

    it('only allows sortable on scalar, non-relationship types', () => {
      assert.ok(METAFIELD_KINDS.number.sortable && METAFIELD_KINDS.date.sortable);
      assert.deepEqual(
        check([
          { ...relation('objects', 'tags', 'tags'), sortable: true },
          { type: 'json', title: 'j', key: 'j', value: {}, sortable: true },
        ]),
        [
          'metafields[0].sortable is not allowed for type "objects"',
          'metafields[1].sortable is not allowed for type "json"',
        ],
      );
    });
  });

  describe('options', () => {
    it('rejects duplicate select-dropdown keys but not duplicate labels', () => {
      const options = [
        { key: 'a', value: 'Same' },
        { key: 'b', value: 'Same' },
        { key: 'a', value: 'Other' },
      ];
      assert.deepEqual(check([{ type: 'select-dropdown', title: 's', key: 's', value: '', options }]), [
        'metafields[0].options[2].key "a" is used twice',
      ]);
    });

    it('rejects duplicate radio-buttons and check-boxes values', () => {
      const options = [{ value: 'x' }, { value: 'x' }];
      assert.deepEqual(
        check([
          { type: 'radio-buttons', title: 'r', key: 'r', value: '', options },
          { type: 'check-boxes', title: 'c', key: 'c', value: [], options },
        ]),
        ['metafields[0].options[1].value "x" is used twice', 'metafields[1].options[1].value "x" is used twice'],
      );
    });
  });

  it('reports every problem at once', () => {
    const lines = check([
      text('a', { minlength: 3, maxlength: 1, regex: '[' }),
      text('a'),
      relation('object', 'o', 'ghosts'),
    ]);
    assert.equal(lines.length, 4, lines.join('\n'));
  });
});
