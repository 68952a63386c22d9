import assert from 'node:assert/strict';
import type { ErrorObject } from 'ajv';
import { BadRequestError } from '../../lib/errors/http-errors.js';
import { validateBounded, validatorFor, validatorPairFor } from '../../lib/validation/ajv.js';
import { describeAjvErrorsCapped } from '../../lib/validation/ajv-messages.js';
import { describeAjvErrors } from '../../lib/validation/ajv-messages.js';
import { assertValid } from '../../lib/validation/ajv-messages.js';

/** The raw Ajv errors of `value` against `schemaId`. */
function rawErrors(schemaId: string, value: unknown): ErrorObject[] {
  const validate = validatorFor(schemaId);
  assert.equal(validate(value), false, 'the value was meant to be invalid');
  return [...(validate.errors ?? [])];
}

const err = (
  keyword: string,
  instancePath: string,
  params: Record<string, unknown>,
  message = 'is wrong',
): ErrorObject => ({
  keyword,
  instancePath,
  schemaPath: `#/nowhere/${keyword}`,
  params,
  message,
});

describe('describeAjvErrors', () => {
  it('has nothing to say about no errors', () => {
    assert.deepEqual(describeAjvErrors(null, 'body'), []);
    assert.deepEqual(describeAjvErrors(undefined, 'body'), []);
    assert.deepEqual(describeAjvErrors([], 'body'), []);
  });

  it('names unknown fields with the path of their object', () => {
    const errors = rawErrors('ObjectTypeCreate', {
      title: 'T',
      foo: 1,
      metafields: [{ type: 'text', title: 't', key: 't', value: '', bar: 2 }],
    });
    assert.deepEqual(describeAjvErrors(errors, 'body', 'ObjectTypeCreate'), [
      'unknown field "foo" in body',
      'unknown field "bar" in body.metafields[0]',
    ]);
  });

  it('uses the root label it is given', () => {
    const errors = rawErrors('ObjectTypePatch', { nope: true });
    assert.deepEqual(describeAjvErrors(errors, 'request', 'ObjectTypePatch'), ['unknown field "nope" in request']);
  });

  it('turns one if/then mistake into one line naming the condition', () => {
    const errors = rawErrors('ObjectTypeCreate', {
      title: 'T',
      metafields: [
        { type: 'text', title: 't', key: 't', value: '' },
        { type: 'select-dropdown', title: 's', key: 's', value: '' },
      ],
    });
    assert.ok(errors.length > 1, 'Ajv itself reports the branch and the if');
    assert.deepEqual(describeAjvErrors(errors, 'body', 'ObjectTypeCreate'), [
      'body.metafields[1].options is required for type "select-dropdown"',
    ]);
  });

  it('turns a failed anyOf into one line listing the alternatives', () => {
    const errors = rawErrors('Metafield', { type: 'check-boxes', title: 'c', key: 'c', value: [1, 2], options: [] });
    assert.ok(errors.length >= 3);
    assert.deepEqual(describeAjvErrors(errors, 'body', 'Metafield'), [
      'body.value must be an array of strings or "" for type "check-boxes"',
    ]);
  });

  it('says a field is not allowed, or only allowed for some types', () => {
    assert.deepEqual(
      describeAjvErrors(
        rawErrors('Metafield', { type: 'parent', title: 'p', key: 'p', value: '' }),
        'body',
        'Metafield',
      ),
      ['body.value is not allowed for type "parent"'],
    );
    assert.deepEqual(
      describeAjvErrors(
        rawErrors('Metafield', { type: 'text', title: 't', key: 't', value: '', object_type: 'x' }),
        'body',
        'Metafield',
      ),
      ['body.object_type is only allowed for type "object" or "objects"'],
    );
  });

  it('reports the same mistake caught by two rules once', () => {
    const errors = rawErrors('ObjectTypeCreate', { title: 'T', localization: true, locales: 'en' });
    assert.equal(errors.filter((e) => e.keyword === 'type').length, 2);
    assert.deepEqual(describeAjvErrors(errors, 'body', 'ObjectTypeCreate'), ['body.locales must be an array']);
  });

  it('finds conditions without being told the schema', () => {
    const errors = rawErrors('Metafield', { type: 'object', title: 'o', key: 'o', value: '' });
    assert.deepEqual(describeAjvErrors(errors, 'body'), ['body.object_type is required for type "object"']);
  });

  it('lists every problem, in order, one line each', () => {
    const errors = rawErrors('ObjectTypeCreate', { title: 3, slug: 'A', order: 'first', singleton: 'yes' });
    assert.deepEqual(describeAjvErrors(errors, 'body', 'ObjectTypeCreate'), [
      'body.title must be a string',
      'body.slug "A" must be made of lowercase letters, digits and hyphens',
      'body.singleton must be a boolean',
      'body.order must be a number',
    ]);
  });

  it('formats paths with indexes and quoted odd keys', () => {
    assert.deepEqual(describeAjvErrors([err('type', '/a b/0/c~1d', { type: 'string' })], 'body'), [
      'body["a b"][0]["c/d"] must be a string',
    ]);
  });

  it('words common keywords from their params', () => {
    const lines = describeAjvErrors(
      [
        err('maximum', '/n', { comparison: '<=', limit: 5 }),
        err('maxLength', '/s', { limit: 3 }),
        err('minItems', '/l', { limit: 2 }),
        err('format', '/d', { format: 'date-time' }),
        err('type', '/u', { type: 'number,null' }),
        err('dependentRequired', '/x', {}, 'must have property b when property a is present'),
      ],
      'body',
    );
    assert.deepEqual(lines, [
      'body.n must be <= 5',
      'body.s must be at most 3 characters long',
      'body.l must have at least 2 items',
      'body.d must be an ISO 8601 date-time',
      'body.u must be a number or null',
      'body.x must have property b when property a is present',
    ]);
  });

  it('never answers an error list with nothing', () => {
    assert.deepEqual(describeAjvErrors([err('if', '', { failingKeyword: 'then' })], 'body'), ['body is invalid']);
  });
});

describe('assertValid', () => {
  it('returns quietly for a valid value', () => {
    assert.doesNotThrow(() => {
      assertValid('ObjectTypeCreate', { title: 'Posts' }, 'body');
    });
  });

  it('throws one 400 listing every problem', () => {
    assert.throws(
      () => {
        assertValid(
          'ObjectTypeCreate',
          { title: '', wat: 1, metafields: [{ type: 'number', title: 'n', key: 'n', value: 'x' }] },
          'body',
        );
      },
      (e: unknown) => {
        assert.ok(e instanceof BadRequestError);
        assert.equal(e.status, 400);
        assert.equal(
          e.message,
          'Invalid request body: unknown field "wat" in body; body.title must not be empty; body.metafields[0].value must be a number or "" for type "number"',
        );
        return true;
      },
    );
  });

  it('lists the first 50 problems and counts the rest, locating only those it lists', () => {
    // 100 Metafields with 100 unknown fields each: 10,000 problems, within every body bound.
    const metafields = Array.from({ length: 100 }, (_, i) => ({
      type: 'text',
      title: 't',
      key: `k${i}`,
      value: '',
      ...Object.fromEntries(Array.from({ length: 100 }, (_, j) => [`x${j}`, 1])),
    }));
    assert.throws(
      () => {
        assertValid('ObjectTypeCreate', { title: 'T', metafields }, 'body');
      },
      (e: unknown) => {
        assert.ok(e instanceof BadRequestError);
        assert.equal(e.code, 'invalid_body');
        assert.match(e.message, /^Invalid request body: unknown field "x0" in body\.metafields\[0\]; /);
        assert.match(e.message, /; and 9950 more problems$/);
        assert.ok(e.message.length < 4000, `${e.message.length} characters`);
        return true;
      },
    );
    // Listing all 10,000 took seconds (every error was located in the schemas); now only the
    // listed ones are. The work is counted, not timed: locating an error reads its schemaPath.
    const invalid = validateBounded(validatorPairFor('ObjectTypeCreate'), { title: 'T', metafields });
    assert.ok(invalid?.errors);
    const schemaPathReads = (max: number) => {
      let reads = 0;
      const counted = invalid.errors.map(
        (err) =>
          new Proxy(err, {
            get(target, prop, receiver) {
              if (prop === 'schemaPath') reads++;
              return Reflect.get(target, prop, receiver) as unknown;
            },
          }),
      );
      describeAjvErrorsCapped(counted, 'body', 'ObjectTypeCreate', max);
      return reads;
    };
    const capped = schemaPathReads(50);
    const all = schemaPathReads(Infinity);
    assert.ok(capped * 10 < all, `listing 50 read schemaPath ${capped} times, listing all ${all}`);
  });

  it('lists only the first problem of a value too large to look for all', () => {
    const metafields = Array.from({ length: 30 }, (_, i) => ({
      type: 'text',
      title: 't',
      key: `k${i}`,
      value: '',
      ...Object.fromEntries(Array.from({ length: 1000 }, (_, j) => [`x${j}`, 1])),
    }));
    assert.throws(() => {
      assertValid('ObjectTypeCreate', { title: 'T', metafields }, 'body');
    }, /^BadRequestError: Invalid request body: unknown field "x0" in body\.metafields\[0\]; only the first problem is listed for a body of more than 20000 values$/);
  });

  it('is a programming error, not a 400, for an unknown schema', () => {
    assert.throws(
      () => {
        // @ts-expect-error: only body schema names compile; this checks the run-time guard behind that.
        assertValid('NoSuchSchema', {}, 'body');
      },
      (e: unknown) => e instanceof Error && !(e instanceof BadRequestError) && /NoSuchSchema/.test(e.message),
    );
  });
});
