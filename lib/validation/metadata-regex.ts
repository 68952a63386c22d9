import { LRUCache } from 'lru-cache';
import { MAX_METAFIELD_REGEX_LENGTH } from './limits.js';
import { compileLinear, type LinearRegex } from './linear-regex.js';
import { jsRegexProblem } from './regex-safety.js';

/**
 * A Metafield `regex` is either a bare source ("^[a-z-]+$") or a literal with flags
 * ("/^[a-z]+$/i"). It runs with JavaScript semantics; g and y are dropped because they make
 * RegExp#test stateful across calls on the same compiled expression.
 */
function sourceAndFlags(regex: string): { source: string; flags: string } {
  const literal = /^\/(.+)\/([dgimsuvy]*)$/s.exec(regex);
  return { source: literal?.[1] ?? regex, flags: literal?.[2]?.replace(/[gy]/g, '') ?? '' };
}

/** The compiled expression, or null when it does not compile, so a bad definition never blames a value. */
export function compileMetafieldRegex(regex: string): RegExp | null {
  const { source, flags } = sourceAndFlags(regex);
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

/**
 * Why a (compiling) Metafield regex may not be saved, or null. This process runs it on a
 * linear-time engine (see linearMetafieldRegex), which must be able to; it must also be safe for
 * a backtracking one, as clients check values with RegExp before they send them.
 */
export function unsafeMetafieldRegex(regex: string): string | null {
  if (regex.length > MAX_METAFIELD_REGEX_LENGTH) return `longer than ${MAX_METAFIELD_REGEX_LENGTH} characters`;
  const { source, flags } = sourceAndFlags(regex);
  const linear = compileLinear(source, flags);
  return jsRegexProblem(source, flags) ?? ('problem' in linear ? linear.problem : null);
}

/**
 * The (compiling) Metafield regex on the linear-time engine, or why it cannot run there. Writes
 * run it on the event loop, so nothing else may run it: a regex stored before the safety check
 * existed may backtrack exponentially on RegExp, but not here.
 */
export function linearMetafieldRegex(regex: string): LinearRegex | { problem: string } {
  if (regex.length > MAX_METAFIELD_REGEX_LENGTH)
    return { problem: `longer than ${MAX_METAFIELD_REGEX_LENGTH} characters` };
  const { source, flags } = sourceAndFlags(regex);
  return compileLinear(source, flags);
}

/** Numbers are tested by their decimal text so a regex on a number Metafield means something. */
export function regexSubject(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A stored regex the linear-time engine cannot run (a back-reference, say): it is never run. */
export const UNSAFE_REGEX = Symbol('unsafe regex');

/**
 * Compiled Metafield regexes by source: sources repeat across requests and types, so each is
 * compiled once. One per app (see lib/app-state.ts); the least recently used goes first.
 * null: the source does not compile as JavaScript, so a bad definition never blames a value.
 */
export class MetafieldRegexes {
  // Boxed, as the cache holds no null: "does not compile" is an answer worth keeping too.
  private readonly compiled = new LRUCache<string, { regex: LinearRegex | typeof UNSAFE_REGEX | null }>({
    max: 1000,
    memoMethod: (source) => {
      const linear = compileMetafieldRegex(source) === null ? null : linearMetafieldRegex(source);
      return { regex: linear === null ? null : 'problem' in linear ? UNSAFE_REGEX : linear };
    },
  });

  get(source: string): LinearRegex | typeof UNSAFE_REGEX | null {
    return this.compiled.memo(source).regex;
  }
}
