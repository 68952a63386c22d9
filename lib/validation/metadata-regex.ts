/**
 * A Metafield `regex` is either a bare source ("^[a-z-]+$") or a literal with flags
 * ("/^[a-z]+$/i"). It runs with JavaScript semantics; g and y are dropped because they make
 * RegExp#test stateful across calls on the same compiled expression.
 * Returns null when the expression does not compile, so a bad definition never blames a value.
 */
export function compileMetafieldRegex(regex: string): RegExp | null {
  const literal = /^\/(.+)\/([dgimsuvy]*)$/s.exec(regex);
  const source = literal?.[1] ?? regex;
  const flags = literal?.[2]?.replace(/[gy]/g, '') ?? '';
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

/** Numbers are tested by their decimal text so a regex on a number Metafield means something. */
export function regexSubject(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/**
 * Compiled Metafield regexes by source: sources repeat across requests and types, so each is
 * compiled once. One per app (see lib/cache/app-state.ts); the oldest entry goes first.
 */
export class MetafieldRegexes {
  private readonly compiled = new Map<string, RegExp | null>();

  constructor(private readonly maxEntries = 1000) {}

  get(source: string): RegExp | null {
    if (this.compiled.has(source)) return this.compiled.get(source) ?? null;
    const regex = compileMetafieldRegex(source);
    const oldest = this.compiled.keys().next();
    if (this.compiled.size >= this.maxEntries && !oldest.done) this.compiled.delete(oldest.value);
    this.compiled.set(source, regex);
    return regex;
  }
}
