/**
 * Query-string parser for every route. Unlike the form decoder, a `+` stays a literal `+`:
 * old clients build `query` with encodeURI, which leaves `+` unescaped inside JSON values.
 * A repeated name becomes an array, which parameter readers reject by name.
 */
export function parseQueryString(qs: string): Record<string, string | string[]> {
  // No prototype, so a parameter named `constructor` or `__proto__` is just a parameter.
  const out = Object.create(null) as Record<string, string | string[]>;
  if (!qs) return out;
  for (const part of qs.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeComponent(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decodeComponent(part.slice(eq + 1));
    const prev = out[name];
    if (prev === undefined) out[name] = value;
    else out[name] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** Malformed percent-escapes are kept as written; the parameter's own validation rejects them. */
function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
