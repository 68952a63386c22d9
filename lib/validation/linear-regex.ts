import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { RE2JS } from 're2js';
import { CharSet } from './char-set.js';
import { charSetOf } from './regex-char-sets.js';

/**
 * JavaScript regexes run on RE2 (re2js, a pure-JavaScript port): its automaton takes time linear
 * in the text whatever the pattern, so a Metafield regex can never freeze the event loop, not
 * even one stored before the safety check existed. The pattern is rewritten from its JavaScript
 * parse (regexpp) into RE2 syntax, spelling out what JavaScript means by `.`, `\s`, `\d`, `\w`
 * and by every class, so the two agree. Known differences, all at the edges: with `i`, RE2 folds
 * a few characters JavaScript keeps apart without `u` (ſ and s, the Kelvin sign and k); with
 * `m`, only "\n" ends a line for ^ and $; and without `u`, RE2 still reads an astral character
 * (an emoji) as one character where JavaScript reads two code units.
 */

/** A compiled Metafield regex: RegExp#test's meaning, in linear time. */
export interface LinearRegex {
  readonly linear: true;
  test(subject: string): boolean;
}

/** RE2 refuses larger repeat counts. */
const MAX_RE2_REPEAT = 1000;

const parser = new RegExpParser({ ecmaVersion: 2024 });

class Unsupported extends Error {}

const isSurrogate = (cp: number): boolean => cp >= 0xd800 && cp <= 0xdfff;

function codePoint(cp: number): string {
  if (isSurrogate(cp)) throw new Unsupported('a lone UTF-16 surrogate');
  return /[A-Za-z0-9]/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : `\\x{${cp.toString(16)}}`;
}

function rangesOf(set: CharSet): string {
  return set
    .rangeList()
    .map(([lo, hi]) => (lo === hi ? codePoint(lo) : `${codePoint(lo)}-${codePoint(hi)}`))
    .join('');
}

const SURROGATES = CharSet.fromRanges([[0xd800, 0xdfff]]);

/**
 * A class from a computed set. RE2 reads code points, never lone surrogates, so they are left
 * out (a class of nothing but surrogates then matches nothing); an empty set matches nothing.
 */
function classBody(set: CharSet): string {
  return rangesOf(set.minus(SURROGATES));
}

function classOf(set: CharSet): string {
  const body = classBody(set);
  return body === '' ? '[^\\x{0}-\\x{10ffff}]' : `[${body}]`;
}

class Emitter {
  constructor(private readonly dotAll: boolean) {}

  private set(node: Parameters<typeof charSetOf>[0]): CharSet | null {
    return charSetOf(node, { dotAll: this.dotAll, mode: 'exact' });
  }

  property(node: AST.CharacterSet & { kind: 'property' }): string {
    if (node.strings) throw new Unsupported(`${node.raw} (a property of strings)`);
    if (node.key === 'Script_Extensions') throw new Unsupported(`${node.raw} (Script_Extensions)`);
    const name = node.value ?? node.key;
    return `\\${node.negate ? 'P' : 'p'}{${name}}`;
  }

  /** A class that holds a Unicode property: its parts, which RE2 unites. */
  private classWithProperties(node: AST.CharacterClass): string {
    if (node.unicodeSets) throw new Unsupported(`${node.raw} (set operations on Unicode properties)`);
    const parts = node.elements.map((e) => {
      if (e.type === 'CharacterSet' && e.kind === 'property') return this.property(e);
      const set = this.set(e);
      if (set === null) throw new Unsupported(node.raw);
      return classBody(set);
    });
    return `[${node.negate ? '^' : ''}${parts.join('')}]`;
  }

  element(e: AST.Element): string {
    switch (e.type) {
      case 'Character':
        return codePoint(e.value);
      case 'CharacterSet':
        if (e.kind === 'property') return this.property(e);
        return classOf(this.set(e) ?? CharSet.all);
      case 'CharacterClass':
      case 'ExpressionCharacterClass': {
        const set = this.set(e);
        if (set !== null) return classOf(set);
        if (e.type === 'CharacterClass') return this.classWithProperties(e);
        throw new Unsupported(e.raw);
      }
      case 'Group':
      case 'CapturingGroup':
        // Captures mean nothing to a yes/no test.
        return `(?:${this.alternatives(e.alternatives)})`;
      case 'Quantifier': {
        if (e.min > MAX_RE2_REPEAT || (e.max !== Infinity && e.max > MAX_RE2_REPEAT))
          throw new Unsupported(`${e.raw} (counts above ${MAX_RE2_REPEAT})`);
        const body = `(?:${this.element(e.element)})`;
        if (e.max === Infinity) return `${body}{${e.min},}`;
        return e.min === e.max ? `${body}{${e.min}}` : `${body}{${e.min},${e.max}}`;
      }
      case 'Assertion':
        if (e.kind === 'start') return '^';
        if (e.kind === 'end') return '$';
        if (e.kind === 'word') return e.negate ? '\\B' : '\\b';
        throw new Unsupported('look-around');
      case 'Backreference':
        throw new Unsupported('back-references');
    }
  }

  /** A sequence; without `u`, a surrogate pair written as two characters is one code point. */
  sequence(elements: readonly AST.Element[]): string {
    let out = '';
    for (let i = 0; i < elements.length; i++) {
      const e = elements[i];
      const next = elements[i + 1];
      if (e === undefined) break;
      if (
        e.type === 'Character' &&
        next?.type === 'Character' &&
        e.value >= 0xd800 &&
        e.value <= 0xdbff &&
        next.value >= 0xdc00 &&
        next.value <= 0xdfff
      ) {
        out += codePoint(0x10000 + ((e.value - 0xd800) << 10) + (next.value - 0xdc00));
        i++;
      } else out += this.element(e);
    }
    return out;
  }

  alternatives(alternatives: readonly AST.Alternative[]): string {
    return alternatives.map((a) => this.sequence(a.elements)).join('|');
  }
}

/**
 * The JavaScript regex `source` with `flags` (i, m, s, u, v; others ignored) compiled for RE2,
 * or why it cannot be: a back-reference, look-around, or a construct RE2 lacks. Assumes the
 * pattern compiles as JavaScript.
 */
export function compileLinear(source: string, flags: string): LinearRegex | { problem: string } {
  try {
    const ast = parser.parsePattern(source, 0, source.length, {
      unicode: flags.includes('u'),
      unicodeSets: flags.includes('v'),
    });
    const re2Source = new Emitter(flags.includes('s')).alternatives(ast.alternatives);
    const re2Flags = (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes('m') ? RE2JS.MULTILINE : 0);
    const re = RE2JS.compile(re2Source, re2Flags);
    return { linear: true, test: (subject) => re.test(subject) };
  } catch (err) {
    if (err instanceof Unsupported) return { problem: `${err.message} cannot run on the linear-time engine` };
    const reason = err instanceof Error ? err.message : String(err);
    return { problem: `cannot run on the linear-time engine (${reason})` };
  }
}
