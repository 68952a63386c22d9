import assert from 'node:assert/strict';
import { compileLinear } from '../../lib/validation/linear-regex.js';

describe('Metafield regexes on the linear-time engine', () => {
  const patterns: [string, string][] = [
    ['^[a-z-]+$', ''],
    ['^[a-z]+$', 'i'],
    ['^[A-Z]{3}$', ''],
    ['^\\-\\d+$', ''],
    ['\\d+', ''],
    ['^abc$', 'i'],
    ['^a.c$', ''],
    ['^a.c$', 's'],
    ['^\\s+$', ''],
    ['^\\W\\D\\S$', ''],
    ['\\bword\\b', ''],
    ['\\Bor', ''],
    ['^(?:https?://|)[a-z.]+$', ''],
    ['(?<year>\\d{4})', ''],
    ['^\\p{L}+$', 'u'],
    ['^\\p{Lu}', 'u'],
    ['^[^a-c]+$', ''],
    ['^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$', 'i'],
    ['^😀+$', 'u'],
    ['^😀$', ''],
    ['^[à-ÿ]+$', 'i'],
    ['^c$', 'm'],
    ['^\\u00e9$', ''],
    ['^[\\s\\S]{2}$', 'u'],
    ['x|^$', ''],
    ['^[\\d\\-]+$', ''],
    ['^a{2,3}$', ''],
    ['^[[\\]^-]+$', ''],
  ];
  const subjects = [
    ...['abc', 'ABC', 'a-b', '2024', '-12', 'a1', 'word', 'a word!', 'sword', 'a\nc', 'abc\ndef', 'aaa', 'aaaa'],
    ...['https://x.y', 'x.y', 'é', 'É', '😀', '😀😀', 'Ǆ', 'a@b.co', 'A@B-c.com', '', ' \t\u00a0', 'ß', '1-2-3'],
    ...['!a ', '!_ ', 'aXc', '[]^-', 'de'],
  ];

  it('answers as RegExp does', () => {
    for (const [pattern, flags] of patterns) {
      const linear = compileLinear(pattern, flags);
      assert.ok('linear' in linear, `${pattern}: ${'problem' in linear ? linear.problem : ''}`);
      const js = new RegExp(pattern, flags);
      for (const s of subjects)
        assert.equal(linear.test(s), js.test(s), `/${pattern}/${flags} on ${JSON.stringify(s)}`);
    }
  });

  it('says why it cannot run what RE2 lacks', () => {
    const problem = (p: string, f = '') => {
      const compiled = compileLinear(p, f);
      return 'problem' in compiled ? compiled.problem : 'compiled';
    };
    assert.match(problem('(a)\\1'), /back-references cannot run on the linear-time engine/);
    assert.match(problem('a(?=b)'), /look-around cannot run/);
    assert.match(problem('a{1001}'), /counts above 1000/);
    assert.match(problem('\\p{Letter}', 'u'), /cannot run on the linear-time engine/);
    assert.match(problem('[\\p{L}--[a-z]]', 'v'), /cannot run/);
    assert.match(problem('^\\ud83d$'), /lone UTF-16 surrogate/);
  });
});
