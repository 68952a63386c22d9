import assert from 'node:assert/strict';
import { MAX_REPORTED_PROBLEMS, ValidationErrors } from '../../lib/errors/http-errors.js';
import { countJsonValues, jsonBoundsProblems } from '../../lib/validation/json-bounds.js';

const bounds = { maxDepth: 32, maxKeys: 1000, storableKeys: true };

/** `levels` objects nested under key `a`, the innermost holding 1. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('jsonBoundsProblems', () => {
  it('accepts 32 levels and names the path where the 33rd begins', () => {
    assert.deepEqual(jsonBoundsProblems(nested(32), 'v', bounds).problems, []);
    const { problems } = jsonBoundsProblems(nested(33), 'v', bounds);
    assert.deepEqual(problems, [`v${'.a'.repeat(32)} is nested deeper than 32 levels`]);
  });

  it('counts arrays as levels and shows their indexes', () => {
    let value: unknown = [];
    for (let i = 0; i < 33; i++) value = [0, value];
    assert.deepEqual(jsonBoundsProblems(value, 'v', bounds).problems, [
      `v${'[1]'.repeat(32)} is nested deeper than 32 levels`,
    ]);
  });

  it('walks a value nested 200,000 levels deep without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`) as unknown;
    const { problems } = jsonBoundsProblems(deep, 'v', bounds);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /is nested deeper than 32 levels$/);
  });

  it('refuses objects with more keys than allowed, naming them', () => {
    const wide = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]));
    assert.deepEqual(jsonBoundsProblems({ inner: wide }, 'body', bounds).problems, [
      'body.inner has 1001 keys, more than the 1000 allowed',
    ]);
    assert.deepEqual(jsonBoundsProblems({ inner: { ...wide, k1000: undefined } }, 'body', bounds).problems.length, 1);
  });

  it('refuses keys MongoDB cannot store when asked to, naming where they are', () => {
    const value = { ok: { $set: 1, 'a.b': 2, 'nul\0': 3, fine: { deeper: [{ $inc: 1 }] } } };
    assert.deepEqual(jsonBoundsProblems(value, 'm', bounds).problems, [
      'm.ok: key "$set" may not start with "$" or contain "." or a NUL character',
      'm.ok: key "a.b" may not start with "$" or contain "." or a NUL character',
      'm.ok: key "nul\\u0000" may not start with "$" or contain "." or a NUL character',
      'm.ok.fine.deeper[0]: key "$inc" may not start with "$" or contain "." or a NUL character',
    ]);
  });

  it('always refuses keys holding NUL, which no BSON document can store', () => {
    const value = { ok: { $set: 1, 'a.b': 2, 'nul\0': 3, list: [{ '\0': 1 }] } };
    assert.deepEqual(jsonBoundsProblems(value, 'body', { ...bounds, storableKeys: false }).problems, [
      'body.ok: key "nul\\u0000" contains a NUL character, which keys may not hold',
      'body.ok.list[0]: key "\\u0000" contains a NUL character, which keys may not hold',
    ]);
    assert.deepEqual(jsonBoundsProblems({ title: 'a\0b', list: ['\0'] }, 'body', bounds).problems, []);
  });

  it('words the first problems only and counts the rest', () => {
    const many = Array.from({ length: MAX_REPORTED_PROBLEMS + 30 }, () => ({ $x: 1 }));
    const report = jsonBoundsProblems(many, 'm', bounds);
    assert.equal(report.problems.length, MAX_REPORTED_PROBLEMS);
    assert.equal(report.unlisted, 30);
    assert.match(report.problems[0]!, /^m\[0\]: key "\$x"/);
  });

  it('has nothing to say about scalars', () => {
    for (const v of [null, 1, 'x', true, undefined]) assert.deepEqual(jsonBoundsProblems(v, 'v', bounds).problems, []);
  });
});

describe('countJsonValues', () => {
  it('counts keys and items at every level, and stops early past the bound', () => {
    assert.equal(countJsonValues({ a: [1, 2, { b: 3 }], c: null }, 100), 6);
    assert.equal(countJsonValues('x', 100), 0);
    const big = Array.from({ length: 1000 }, () => [1, 2, 3]);
    assert.ok(countJsonValues(big, 10) <= 1000);
  });
});

describe('ValidationErrors', () => {
  it(`lists the first ${MAX_REPORTED_PROBLEMS} problems and counts the rest`, () => {
    const errors = new ValidationErrors();
    for (let i = 0; i < MAX_REPORTED_PROBLEMS + 10; i++) errors.add(`problem ${i}`);
    errors.addUnlisted(5);
    assert.equal(errors.count, MAX_REPORTED_PROBLEMS + 15);
    assert.throws(
      () => {
        errors.throwIfAny('Invalid thing', 'invalid_body');
      },
      (e: unknown) => {
        const message = (e as Error).message;
        assert.equal(message.split('; ').length, MAX_REPORTED_PROBLEMS + 1);
        assert.match(message, /^Invalid thing: problem 0; /);
        assert.match(message, /; problem 49; and 15 more problems$/);
        assert.equal((e as { code?: string }).code, 'invalid_body');
        return true;
      },
    );
  });

  it('says nothing when there is nothing to say', () => {
    const errors = new ValidationErrors();
    assert.equal(errors.count, 0);
    errors.throwIfAny();
  });
});
