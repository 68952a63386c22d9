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
    assert.match(mongoRegexProblem('^(a+) +', 'ix')!, /with the x option/);
    assert.equal(mongoRegexProblem('^(a+) +', 'i'), null);
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

  describe('time more than linear in the length of the text', () => {
    // Each of these was measured on the embedded engine (spec/bench/regex-cost.ts).
    const accepted: [string, string][] = [
      ['^a', ''],
      ['^[a-z]+$', ''],
      ['^[a-z]+$', 'm'],
      ['foo', ''],
      ['hello world', 'i'],
      ['^.*x', ''],
      ['^\\d+-\\d+$', ''],
      ['\\b\\d+-\\d+', ''],
      ['id-\\d+-x', ''],
      ['^a+b+', ''],
      ['\\d+', ''],
      ['foo.*', ''],
      ['.*', ''],
      ['a+b*', ''],
      ['foo\\s+bar', 'i'],
      ['^\\s*(\\w+)\\s*$', ''],
      ['colou?r', ''],
      ['^https?://', ''],
      ['\\d{3}-?\\d{4}', ''],
      ['[0-9a-f]{40}', 'i'],
      ['^(?:ab|cd)*x', ''],
      ['^(?:https?://|)[a-z.]+$', ''],
    ];
    const refused: [string, string, RegExp][] = [
      // The pattern: 35 s on 400 characters.
      ['.*.*.*.*.*.*x', '', /a leading \.\* adds nothing to a search.*drop it/],
      ['.*x', '', /a leading \.\* adds nothing/],
      ['.*a.*b', '', /a leading \.\*/],
      ['\\w+\\w+', '', /\\w\+ can take time quadratic.*anchor the pattern with \^/],
      ['\\d+-\\d+', '', /\\d\+ can take time quadratic/],
      ['a+b+', '', /a\+ can take time quadratic/],
      ['a+b', 'i', /a\+ can take time quadratic/],
      ['hello.*world', '', /\.\* can take time quadratic/],
      ['[a-z]+$', '', /quadratic/],
      ['^\\w+\\d+x', '', /\\w\+ and \\d\+ can match the same characters/],
      ['^.*a.*b', '', /\.\* and \.\* can match the same characters/],
      ['^\\s*x\\s*\\s*y', '', /\\s\* and \\s\* can match/],
      ['^.*x', 'ms', /\.\* can take time quadratic/],
      ['(?:ab|cd)*x', '', /quadratic/],
      ['^a+A+b', 'i', /a\+ and A\+ can match the same characters/],
      ['(a|a)*', '', /\(a\|a\)\* repeats alternatives that can begin with the same character/],
      ['^(a|ab)*$', '', /repeats alternatives/],
      ['^(?:a(?:b|b))*$', '', /repeats alternatives/],
      ['^(?:\\s|\\n)+$', '', /repeats alternatives/],
      ['^(?:k|\u212a)+$', 'i', /repeats alternatives/],
      ['(\\w+\\.)*', '', /nested quantifiers/],
      ['(a?a)*', '', /nested quantifiers/],
      ['a{1000}', '', /repetition counts multiply/],
      ['\\d{0,64}x', '', /repetition counts multiply/],
      ['^\\d{0,10}\\d{0,10}x', '', /repetition counts multiply/],
      [`^${'a?'.repeat(8)}${'a'.repeat(8)}$`, '', /repetition counts multiply/],
      [`^${'(?:a|)'.repeat(8)}${'a'.repeat(8)}$`, '', /repetition counts multiply/],
      [`^${'(?:a|ab)'.repeat(7)}x`, '', /alternatives that can begin with the same character multiply/],
    ];

    it('accepts ordinary patterns that stay linear', () => {
      for (const [p, flags] of accepted) {
        assert.equal(mongoRegexProblem(p, flags), null, `${p} /${flags}`);
        assert.equal(jsRegexProblem(p, flags), null, `${p} /${flags}`);
      }
    });

    it('refuses several repetitions that can match the same text, counting the search itself', () => {
      for (const [p, flags, why] of refused) {
        assert.match(mongoRegexProblem(p, flags) ?? 'accepted', why, `${p} /${flags}`);
        assert.match(jsRegexProblem(p, flags) ?? 'accepted', why, `${p} /${flags}`);
      }
    });

    it('is not fooled by \\b or ^ that cannot separate the repetitions', () => {
      // Letters and punctuation mixed: \b can hold inside such a run.
      assert.match(mongoRegexProblem('\\b[\\w.]+@', '') ?? 'accepted', /quadratic/);
      // With m, ^ is a line start: \s can cross lines.
      assert.match(mongoRegexProblem('^\\s*x', 'm') ?? 'accepted', /quadratic/);
      assert.equal(mongoRegexProblem('^\\s*x', ''), null);
    });

    it("refuses a nested class MongoDB's engines read otherwise", () => {
      assert.match(mongoRegexProblem('[\\w[x]]+', '')!, /a literal "\[" inside a character class must be escaped/);
      assert.match(mongoRegexProblem('[[:alpha:]]', '')!, /must be escaped as \\\[/);
      assert.equal(mongoRegexProblem('[\\[x]', ''), null);
    });
  });
});
