import { MAX_METAFIELD_REGEX_LENGTH } from './limits.js';
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
 * Why a (compiling) Metafield regex must not run on this process, or null. It runs on the event
 * loop for every write, so one that backtracks exponentially would freeze every request.
 */
export function unsafeMetafieldRegex(regex: string): string | null {
  if (regex.length > MAX_METAFIELD_REGEX_LENGTH) return `longer than ${MAX_METAFIELD_REGEX_LENGTH} characters`;
  const { source, flags } = sourceAndFlags(regex);
  return jsRegexProblem(source, flags);
}

/** Numbers are tested by their decimal text so a regex on a number Metafield means something. */
export function regexSubject(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** A stored regex that fails the safety check: it is never run. */
export const UNSAFE_REGEX = Symbol('unsafe regex');

/**
 * Compiled Metafield regexes by source: sources repeat across requests and types, so each is
 * compiled (and judged) once. One per app (see lib/cache/app-state.ts); the oldest entry goes first.
 */
export class MetafieldRegexes {
  private readonly compiled = new Map<string, RegExp | typeof UNSAFE_REGEX | null>();

  constructor(private readonly maxEntries = 1000) {}

  get(source: string): RegExp | typeof UNSAFE_REGEX | null {
    if (this.compiled.has(source)) return this.compiled.get(source) ?? null;
    const compiled = compileMetafieldRegex(source);
    const regex = compiled && unsafeMetafieldRegex(source) !== null ? UNSAFE_REGEX : compiled;
    const oldest = this.compiled.keys().next();
    if (this.compiled.size >= this.maxEntries && !oldest.done) this.compiled.delete(oldest.value);
    this.compiled.set(source, regex);
    return regex;
  }
}
