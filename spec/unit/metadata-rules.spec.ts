import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { HEX_A, bad, check, mf } from '../support/metadata-helpers.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { compileMetafieldRegex, MetafieldRegexes, UNSAFE_REGEX } from '../../lib/validation/metadata-regex.js';

describe('metadata validation rules', () => {
  describe('regex', () => {
    const slug = mf('text', 'slug', { regex: '^[a-z-]+$', regex_message: 'use lowercase letters and dashes only' });

    it('reports regex_message when the value does not match', () => {
      assert.deepEqual(check([slug], { slug: 'Hello World' }), [
        bad('slug', 'text', 'use lowercase letters and dashes only'),
      ]);
      assert.deepEqual(check([slug], { slug: 'hello-world' }), []);
    });

    it('names the pattern when there is no regex_message', () => {
      const field = mf('text', 'code', { regex: '^[A-Z]{3}$' });
      assert.deepEqual(check([field], { code: 'abcd' }), [bad('code', 'text', 'must match pattern "^[A-Z]{3}$"')]);
    });

    it('skips the regex for an empty non-required value', () => {
      assert.deepEqual(check([slug], { slug: '' }), []);
    });

    it('uses JavaScript semantics (no unicode mode), and the /source/flags form', () => {
      assert.deepEqual(check([mf('text', 'n', { regex: '^\\-\\d+$' })], { n: '-12' }), []);
      const literal = mf('text', 'code', { regex: '/^abc$/i' });
      assert.deepEqual(check([literal], { code: 'ABC' }), []);
      assert.deepEqual(check([literal], { code: 'ABD' }), [bad('code', 'text', 'must match pattern "/^abc$/i"')]);
    });

    it('a global flag does not make repeated checks alternate', () => {
      const field = mf('text', 'code', { regex: '/^a+$/g' });
      const validate = new MetadataValidators().for(
        { _id: new ObjectId(), modified_at: new Date(0), metafields: [field] },
        'create',
      );
      for (let i = 0; i < 3; i++) assert.deepEqual(validate({ code: 'aaa' }), []);
      assert.equal(compileMetafieldRegex('/^a+$/gy')?.flags, '');
      assert.equal(compileMetafieldRegex('('), null);
    });

    it('runs on a linear-time engine, even a catastrophic regex stored before the check', () => {
      const stored = new MetafieldRegexes().get('^(a|a)*$');
      assert.ok(stored !== null && stored !== UNSAFE_REGEX, 'the regex runs');
      // Checked first: RegExp would take about 2^40 steps on the value below.
      assert.ok(!(stored instanceof RegExp) && stored.linear, 'not on the backtracking engine');
      assert.equal(stored.test(`${'a'.repeat(40)}b`), false);
      assert.equal(stored.test('aaaa'), true);
      const field = mf('text', 'code', { regex: '^(a|a)*$' });
      assert.deepEqual(check([field], { code: `${'a'.repeat(40)}b` }), [
        bad('code', 'text', 'must match pattern "^(a|a)*$"'),
      ]);
    });

    it('never runs a stored regex the linear-time engine cannot', () => {
      assert.equal(new MetafieldRegexes().get('^(a+)\\1$'), UNSAFE_REGEX);
      const [problem] = check([mf('text', 'code', { regex: '^(a+)\\1$' })], { code: 'aa' });
      assert.match(problem ?? '', /the Metafield's regex cannot be run safely \(back-references cannot run/);
    });

    it('applies to numbers by their decimal text', () => {
      const field = mf('number', 'year', { regex: '^\\d{4}$', regex_message: 'four digits' });
      assert.deepEqual(check([field], { year: 123 }), [bad('year', 'number', 'four digits')]);
      assert.deepEqual(check([field], { year: 2024 }), []);
    });

    it('a value failing the schema gets only the schema message', () => {
      const field = mf('text', 'code', { regex: '^a$', maxlength: 2 });
      assert.deepEqual(check([field], { code: 'bbb' }), [bad('code', 'text', 'must NOT have more than 2 characters')]);
    });

    it('applies inside parents and repeater items', () => {
      const seo = mf('parent', 'seo', { children: [slug] });
      const rows = mf('repeater', 'rows', { repeater_fields: [slug] });
      assert.deepEqual(check([seo, rows], { seo: { slug: 'X' }, rows: [{ slug: 'ok' }, { slug: 'No' }] }), [
        bad('seo.slug', 'text', 'use lowercase letters and dashes only'),
        bad('rows.1.slug', 'text', 'use lowercase letters and dashes only'),
      ]);
    });
  });

  describe('keys and nesting', () => {
    const seo = mf('parent', 'seo', {
      children: [mf('text', 'title', { maxlength: 60, required: true }), mf('object', 'og', {})],
    });
    const gallery = mf('repeater', 'gallery', {
      repeater_fields: [mf('file', 'image', { required: true }), mf('text', 'caption')],
    });

    it('rejects unknown keys, naming the type', () => {
      assert.deepEqual(check([mf('text', 'title')], { title: 'x', foo: 1 }), [
        'unknown metadata key "foo": the type "posts" defines no such Metafield',
      ]);
    });

    it('without a slug the unknown-key message names "this Object type"', () => {
      const validate = new MetadataValidators().for(
        { _id: new ObjectId(), modified_at: new Date(0), metafields: [] },
        'patch',
      );
      assert.deepEqual(validate({ foo: 1 }), [
        'unknown metadata key "foo": this Object type defines no such Metafield',
      ]);
    });

    it('names nested keys by dotted path', () => {
      assert.deepEqual(check([seo], { seo: { title: 'x'.repeat(61) } }), [
        bad('seo.title', 'text', 'must NOT have more than 60 characters'),
      ]);
      assert.deepEqual(check([seo], { seo: { title: 'ok', og: 'zz' } }), [
        bad('seo.og', 'object', 'must be an Object id (24 hexadecimal characters)'),
      ]);
    });

    it('checks required children on create, and unknown keys inside a parent in both modes', () => {
      assert.deepEqual(check([seo], { seo: { og: HEX_A } }), [bad('seo.title', 'text', 'a value is required')]);
      // A patch changes only the children it sends: the write judges `required` on the result.
      assert.deepEqual(check([seo], { seo: { og: HEX_A } }, 'patch'), []);
      assert.deepEqual(check([seo], { seo: { title: '' } }, 'patch'), [
        bad('seo.title', 'text', 'a value is required'),
      ]);
      assert.deepEqual(check([seo], { seo: { title: 't', extra: 1 } }), [
        'unknown metadata key "seo.extra": the type "posts" defines no such Metafield',
      ]);
    });

    it('validates each repeater item by repeater_fields with its index in the path', () => {
      const problems = check([gallery], { gallery: [{ image: 'a.png' }, { caption: 5 }, { image: 'b.png', x: 1 }] });
      assert.deepEqual(problems, [
        bad('gallery.1.image', 'file', 'a value is required'),
        bad('gallery.1.caption', 'text', 'must be a string'),
        'unknown metadata key "gallery.2.x": the type "posts" defines no such Metafield',
      ]);
    });

    it('reports each offending key once and every offending key', () => {
      const fields = [mf('number', 'price'), mf('text', 'title', { required: true }), seo];
      const problems = check(fields, { price: 'x', seo: { title: 7 }, other: true });
      assert.deepEqual(
        [...problems].sort(),
        [
          bad('price', 'number', 'must be a number'),
          bad('seo.title', 'text', 'must be a string'),
          bad('title', 'text', 'a value is required'),
          'unknown metadata key "other": the type "posts" defines no such Metafield',
        ].sort(),
      );
    });

    it('rejects metadata that is not an object', () => {
      for (const value of [[], 'x', null]) {
        assert.deepEqual(check([mf('text', 't')], value), [
          'invalid metadata: must be an object keyed by Metafield keys',
        ]);
      }
    });

    it('a key named like an Object.prototype member is unknown, not inherited', () => {
      assert.deepEqual(check([mf('text', 't')], JSON.parse('{"constructor": 1, "__proto__": 2}') as unknown), [
        'unknown metadata key "constructor": the type "posts" defines no such Metafield',
        'unknown metadata key "__proto__": the type "posts" defines no such Metafield',
      ]);
    });
  });
});
