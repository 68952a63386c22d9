import type { AST } from '@eslint-community/regexpp';
import { CharSet } from './char-set.js';

/** What `\d`, `\w`, `\s` and `.` mean in JavaScript (ASCII digits and word characters). */
export const DIGIT = CharSet.fromRanges([[0x30, 0x39]]);
export const WORD = CharSet.fromRanges([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
export const SPACE = CharSet.fromRanges([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
/** Line terminators of JavaScript, plus U+0085, which Java's engine (the embedded MongoDB) also counts. */
export const LINE_TERMINATORS = CharSet.of(0x0a, 0x0d, 0x85, 0x2028, 0x2029);
const JS_LINE_TERMINATORS = CharSet.of(0x0a, 0x0d, 0x2028, 0x2029);

export interface SetOptions {
  dotAll: boolean;
  /**
   * 'exact': JavaScript's meaning, for running the pattern elsewhere; `\p{…}` cannot be
   * computed and yields null. 'cover': a superset that holds for every engine that may run the
   * pattern (PCRE's and Java's `.` exclude only some line terminators), for the safety check.
   */
  mode: 'exact' | 'cover';
}

function escapeSet(node: AST.EscapeCharacterSet): CharSet {
  const set = node.kind === 'digit' ? DIGIT : node.kind === 'word' ? WORD : SPACE;
  return node.negate ? set.complement() : set;
}

type SetNode =
  | AST.Character
  | AST.CharacterSet
  | AST.CharacterClass
  | AST.CharacterClassRange
  | AST.ExpressionCharacterClass
  | AST.ClassIntersection
  | AST.ClassSubtraction
  | AST.ClassStringDisjunction;

/**
 * The code points one character-matching node can match, before case folding; null when it
 * cannot be computed here (a Unicode property in 'exact' mode, or a class that holds strings).
 */
export function charSetOf(node: SetNode, opts: SetOptions): CharSet | null {
  switch (node.type) {
    case 'Character':
      return CharSet.of(node.value);
    case 'CharacterClassRange':
      return CharSet.fromRanges([[node.min.value, node.max.value]]);
    case 'CharacterSet':
      if (node.kind === 'any') {
        if (opts.dotAll) return CharSet.all;
        return (opts.mode === 'exact' ? JS_LINE_TERMINATORS : CharSet.of(0x0a)).complement();
      }
      if (node.kind === 'property') return opts.mode === 'exact' ? null : CharSet.all;
      return escapeSet(node);
    case 'CharacterClass': {
      let set = CharSet.empty;
      for (const element of node.elements) {
        const part = charSetOf(element, opts);
        if (part === null) return null;
        set = set.union(part);
      }
      return node.negate ? set.complement() : set;
    }
    case 'ExpressionCharacterClass': {
      const set = charSetOf(node.expression, opts);
      return set && node.negate ? set.complement() : set;
    }
    case 'ClassIntersection':
    case 'ClassSubtraction': {
      const left = charSetOf(node.left, opts);
      const right = charSetOf(node.right, opts);
      if (left === null || right === null) return null;
      if (node.type === 'ClassIntersection') return left.intersect(right);
      // A superset must not lose what the right side might not take away.
      return opts.mode === 'exact' ? left.minus(right) : left;
    }
    case 'ClassStringDisjunction':
      // Strings in a class (`\q{ab}`): the first characters are a cover; no exact set exists.
      return opts.mode === 'exact' ? null : CharSet.all;
  }
}

/** Each cased code point's equivalence class: code points some engine's `i` may join. */
let caseClasses: Map<number, readonly number[]> | null = null;
/** Every code point in such a class. */
let cased: CharSet | null = null;

/**
 * Joins each code point with its single-code-point upper and lower case, transitively. Every
 * engine's case folding (JavaScript's with and without `u`, PCRE's, Java's) only relates
 * characters so connected, so the closure is a cover of what `i` can make a character match.
 * Built once, on first use: about 130,000 code points (cased letters end below U+1FFFF).
 */
function buildCaseClasses(): Map<number, readonly number[]> {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    for (let up = parent.get(root); up !== undefined && up !== root; up = parent.get(root)) root = up;
    return root;
  };
  for (let cp = 0; cp <= 0x1ffff; cp++) {
    const ch = String.fromCodePoint(cp);
    for (const mapped of [ch.toUpperCase(), ch.toLowerCase()]) {
      const other = mapped.codePointAt(0) ?? cp;
      if (other === cp || mapped.length !== String.fromCodePoint(other).length) continue;
      const [ra, rb] = [find(cp), find(other)];
      parent.set(ra, rb);
      if (!parent.has(rb)) parent.set(rb, rb);
    }
  }
  const members = new Map<number, number[]>();
  for (const cp of parent.keys()) {
    const root = find(cp);
    members.set(root, [...(members.get(root) ?? []), cp]);
  }
  const byCodePoint = new Map<number, readonly number[]>();
  for (const list of members.values()) for (const cp of list) byCodePoint.set(cp, list);
  return byCodePoint;
}

/** The set with every character case-insensitive matching can join to one of its members. */
export function caseClosure(set: CharSet): CharSet {
  caseClasses ??= buildCaseClasses();
  cased ??= CharSet.fromRanges([...caseClasses.keys()].map((cp) => [cp, cp]));
  // A large set (a negated class, `.`): adding every cased character is a cover, and cheaper.
  if (set.size > caseClasses.size) return set.union(cased);
  const added: [number, number][] = [];
  const add = (cp: number) => {
    for (const other of caseClasses?.get(cp) ?? []) added.push([other, other]);
  };
  for (const [lo, hi] of set.rangeList()) for (let cp = lo; cp <= hi; cp++) add(cp);
  return added.length === 0 ? set : set.union(CharSet.fromRanges(added));
}
