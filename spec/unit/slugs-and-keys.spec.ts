import assert from 'node:assert/strict';
import { parseQueryString } from '../../lib/http/request.js';
import { generateKey, hashKey, keyMatches } from '../../lib/http/request.js';
import { slugify } from '../../lib/objects/write/slugs.js';

describe('slugify', () => {
  const cases: Array<[string, string]> = [
    ['Hello World', 'hello-world'],
    ['  Trim -- Me  ', 'trim-me'],
    ['Crème Brûlée', 'creme-brulee'],
    ['Straße Ærø Łódź', 'strasse-aero-lodz'],
    ['C++ & Rust!', 'c-rust'],
    ['日本語', 'untitled'],
    ['2026 Plans', '2026-plans'],
  ];
  for (const [title, slug] of cases) {
    it(`"${title}" → "${slug}"`, () => {
      assert.equal(slugify(title), slug);
    });
  }

  it('caps length at 100 without a trailing hyphen', () => {
    const s = slugify('word '.repeat(60));
    assert.ok(s.length <= 100);
    assert.ok(!s.endsWith('-'));
  });
});

describe('keys', () => {
  it('generates distinct URL-safe keys of 32 characters', () => {
    const a = generateKey();
    const b = generateKey();
    assert.notEqual(a, b);
    assert.match(a, /^[A-Za-z0-9_-]{32}$/);
  });

  it('matches only the key whose digest is stored', () => {
    const key = generateKey();
    const stored = hashKey(key);
    assert.equal(keyMatches(key, stored), true);
    assert.equal(keyMatches(key + 'x', stored), false);
    assert.equal(keyMatches(undefined, stored), false);
    assert.equal(keyMatches(key, null), false);
  });
});

describe('parseQueryString', () => {
  it('keeps "+" literal, as old encodeURI clients send it', () => {
    assert.equal(parseQueryString('query={"title":"a+b"}').query, '{"title":"a+b"}');
    assert.equal(parseQueryString('q=%2B%20x').q, '+ x');
  });

  it('keeps malformed escapes as written and collects repeated names', () => {
    assert.equal(parseQueryString('a=%E0%A4%A').a, '%E0%A4%A');
    assert.deepEqual(parseQueryString('a=1&a=2&b').a, ['1', '2']);
    assert.equal(parseQueryString('a=1&a=2&b').b, '');
  });

  it('cannot be used to pollute prototypes', () => {
    const parsed = parseQueryString('__proto__=x&constructor=y');
    assert.equal(Object.getPrototypeOf(parsed), null);
    assert.equal(({} as Record<string, unknown>).x, undefined);
  });
});
