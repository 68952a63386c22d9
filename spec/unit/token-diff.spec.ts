import assert from 'node:assert/strict';
import {
  diffHtml,
  diffTokens,
  diffWords,
  htmlTokens,
  MAX_LCS_CELLS,
  wordTokens,
  type DiffRun,
} from '../../lib/util/token-diff.js';
import { valueLines } from '../../lib/util/value-lines.js';

/** Runs as `=same`, `+ins`, `-del` strings: short to read in an assertion. */
const show = (runs: DiffRun[]) => runs.map((r) => `${{ same: '=', ins: '+', del: '-' }[r.kind]}${r.tokens.join('')}`);

/** Each side put back together from the runs: what any correct diff must give. */
function sides(runs: DiffRun[]): [string, string] {
  const of = (kind: 'ins' | 'del') =>
    runs
      .filter((r) => r.kind !== kind)
      .map((r) => r.tokens.join(''))
      .join('');
  return [of('ins'), of('del')];
}

describe('token diff', () => {
  it('splits words, whitespace and punctuation, letters of any script included', () => {
    assert.deepEqual(wordTokens('Hi,  wörld 42!'), ['Hi', ',', '  ', 'wörld', ' ', '42', '!']);
    assert.deepEqual(wordTokens(''), []);
  });

  it('keeps tags and entities whole in HTML', () => {
    assert.deepEqual(htmlTokens('<p class="a">Tom &amp; Jo</p>'), [
      '<p class="a">',
      'Tom',
      ' ',
      '&amp;',
      ' ',
      'Jo',
      '</p>',
    ]);
    assert.deepEqual(htmlTokens('a & b'), ['a', ' ', '&', ' ', 'b']);
  });

  it('marks a changed word between shared ones', () => {
    assert.deepEqual(show(diffWords('the quick fox', 'the slow fox')), ['=the ', '-quick', '+slow', '= fox']);
  });

  it('reads changes only a space keeps apart as one replaced phrase', () => {
    assert.deepEqual(show(diffWords('Lowercase no more', 'Second version')), ['-Lowercase no more', '+Second version']);
    assert.deepEqual(show(diffWords('keep a b keep', 'keep x y keep')), ['=keep ', '-a b', '+x y', '= keep']);
  });

  it('finds the longest common subsequence, not just the common ends', () => {
    const runs = diffWords('a b c d e', 'a x c d y e');
    assert.deepEqual(show(runs), ['=a ', '-b', '+x', '= c d', '+ y', '= e']);
  });

  it('marks all inserted or all deleted when one side is empty, and nothing when equal', () => {
    assert.deepEqual(show(diffWords('', 'new text')), ['+new text']);
    assert.deepEqual(show(diffWords('old', '')), ['-old']);
    assert.deepEqual(show(diffWords('same', 'same')), ['=same']);
    assert.deepEqual(diffWords('', ''), []);
  });

  it('gives back both sides exactly, for many random pairs', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const words = ['a', 'b', 'c', ' ', '.'];
    const text = () => Array.from({ length: rand(12) }, () => words[rand(words.length)]).join('');
    for (let i = 0; i < 300; i++) {
      const [before, after] = [text(), text()];
      const runs = diffWords(before, after);
      assert.deepEqual(sides(runs), [before, after], JSON.stringify({ before, after }));
      // Runs of a kind are merged: no two neighbours share one.
      runs.slice(1).forEach((r, k) => {
        assert.notEqual(r.kind, runs[k]!.kind);
      });
    }
  });

  it('falls back to deleting and inserting the middle whole when the table would be too big', () => {
    const n = Math.ceil(Math.sqrt(MAX_LCS_CELLS)) + 1;
    const before = ['start', ...Array.from({ length: n }, (_, i) => `a${i}`), 'end'];
    const after = ['start', ...Array.from({ length: n }, (_, i) => (i === 5 ? 'x' : `a${i}`)), 'end'];
    // Common ends are trimmed first, so only the middle from the first change counts.
    const small = diffTokens(before, after);
    assert.deepEqual(sides(small), [before.join(''), after.join('')]);
    const reversed = [...after].reverse();
    const big = diffTokens(before, reversed);
    assert.deepEqual(
      big.map((r) => r.kind),
      ['del', 'ins'],
    );
    assert.deepEqual(sides(big), [before.join(''), reversed.join('')]);
  });

  it('marks HTML text changes and keeps the new structure', () => {
    assert.equal(diffHtml('<p>Hello world</p>', '<p>Hello there world</p>'), '<p>Hello <ins>there </ins>world</p>');
    assert.equal(diffHtml('<p>one</p><p>two</p>', '<p>one</p>'), '<p>one</p><del>two</del>');
    assert.equal(diffHtml('<p>bold</p>', '<p><strong>bold</strong></p>'), '<p><strong>bold</strong></p>');
    assert.equal(
      diffHtml('<p>a <a href="x">link</a></p>', '<p>a link</p>'),
      '<p>a link</p>',
      'a removed tag goes, its text stays',
    );
    assert.equal(diffHtml('<p>x</p>', '<ul><li>y</li></ul>'), '<del>x</del><ul><li><ins>y</ins></li></ul>');
  });
});

describe('value lines', () => {
  it('reads empty values as no lines and plain values as one', () => {
    assert.deepEqual(valueLines(null), []);
    assert.deepEqual(valueLines(''), []);
    assert.deepEqual(valueLines(undefined), []);
    assert.deepEqual(valueLines(12.5), ['12.5']);
    assert.deepEqual(valueLines(true), ['true']);
  });

  it('lists plain items one a line, and names picked values', () => {
    assert.deepEqual(valueLines(['news', 'tech']), ['news', 'tech']);
    assert.deepEqual(valueLines({ key: 'news', value: 'News' }), ['News']);
    assert.deepEqual(
      valueLines([
        { id: '1', title: 'Home' },
        { id: '2', title: 'About' },
      ]),
      ['1: Home', '2: About'],
    );
  });

  it('gives each leaf of JSON its path', () => {
    assert.deepEqual(valueLines({ a: [1, 2], b: { c: 'x', d: null } }), ['a: 1', 'a: 2', 'b.c: x']);
    assert.deepEqual(valueLines([{ step: 'Mix' }, { step: 'Bake' }]), ['1.step: Mix', '2.step: Bake']);
  });

  it('stops at its depth limit with one line of JSON', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 12; i++) deep = { n: deep };
    const lines = valueLines(deep);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^n\.n\.n\.n\.n\.n\.n\.n: \{"n":/);
  });
});
