import assert from 'node:assert/strict';
import { jsRegexProblem, mongoRegexProblem } from '../../lib/validation/regex-safety.js';

describe('regex safety', () => {
  const safe = [
    '^abc',
    'foo|bar',
    '^[a-z0-9-]+$',
    '\\d{4}-\\d{2}',
    '^(?:https?://|)[a-z.]+$',
    '(?<year>\\d{4})',
    '\\bword\\b',
  ];

  it('accepts patterns a linear-time engine runs', () => {
    for (const p of safe) {
      assert.equal(mongoRegexProblem(p, ''), null, p);
      assert.equal(jsRegexProblem(p, ''), null, p);
    }
  });

  it('refuses back-references and look-around, saying why', () => {
    assert.match(mongoRegexProblem('^(a+)+\\1$', '')!, /back-references such as \\1 are not allowed/);
    assert.match(jsRegexProblem('(?<x>a)\\k<x>', '')!, /back-references such as \\k<x>/);
    assert.match(mongoRegexProblem('^(?=a)b', '')!, /look-around assertions such as \(\?=\.\.\.\)/);
    assert.match(jsRegexProblem('(?<!a)b', '')!, /look-around assertions such as \(\?<!\.\.\.\)/);
  });

  it('refuses nested quantifiers, with safe-regex2 judging star height', () => {
    for (const p of ['^(a+)+$', '(a*)*b', '(\\d+)*x', '^(a|ab)+(c+)?$']) {
      assert.match(mongoRegexProblem(p, 'i')!, /nested quantifiers/, p);
      assert.match(jsRegexProblem(p, '')!, /nested quantifiers/, p);
    }
    assert.match(mongoRegexProblem('a+'.repeat(26), '')!, /more than 25 quantifiers/);
  });

  it("refuses what MongoDB's engine would read differently from JavaScript", () => {
    // PCRE: \g1 is a back-reference, {,5} a quantifier; JavaScript reads a letter "g" and a literal.
    assert.match(mongoRegexProblem('^(a+)\\g1$', '')!, /the escape \\g has another meaning/);
    assert.match(mongoRegexProblem('(a+){,5}', '')!, /a literal "\{" must be escaped/);
    assert.match(mongoRegexProblem('\\1', '')!, /\\1 refers to no group/);
    // With x, MongoDB skips whitespace: "(a+) +" would run as "(a+)+".
    assert.match(mongoRegexProblem('(a+) +', 'ix')!, /with the x option/);
    assert.equal(mongoRegexProblem('(a+) +', 'i'), null);
    assert.equal(mongoRegexProblem('ab', 'x'), null);
  });

  it('parses JavaScript patterns with their flags', () => {
    assert.equal(jsRegexProblem('^\\p{L}+$', 'u'), null);
    assert.match(jsRegexProblem('^(\\p{L}+)+$', 'u')!, /nested quantifiers/);
  });

  it('refuses what it cannot parse rather than running it', () => {
    const deep = `${'('.repeat(100_000)}a${')'.repeat(100_000)}`;
    assert.match(jsRegexProblem(deep, '')!, /cannot be checked for safety/);
  });
});
