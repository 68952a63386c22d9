/** Keys quoted in messages are cut to this many characters, so one long key cannot bloat a 400. */
const MAX_SHOWN_KEY = 60;

/** A key or other client text in double quotes, shortened when long. */
export function shortQuote(key: string): string {
  return JSON.stringify(key.length > MAX_SHOWN_KEY ? `${key.slice(0, MAX_SHOWN_KEY - 3)}...` : key);
}

/**
 * A location as clients write it in JavaScript: body.metafields[2].options, body["odd key"].
 * Numbers and digit-only strings are array indexes.
 */
export function formatPath(root: string, segments: readonly (string | number)[]): string {
  let out = root;
  for (const s of segments) {
    if (typeof s === 'number' || /^\d+$/.test(s)) out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(s) && s.length <= MAX_SHOWN_KEY) out += `.${s}`;
    else out += `[${shortQuote(s)}]`;
  }
  return out;
}
