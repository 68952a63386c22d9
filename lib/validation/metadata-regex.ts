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
