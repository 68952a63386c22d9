/** Longest quoted value in a message, in characters; one huge value must not bloat the 400. */
const MAX_QUOTED = 60;

function cut(text: string): string {
  // By code point, so a cut never leaves half a surrogate pair; the slice first bounds the work.
  const chars = Array.from(text.slice(0, MAX_QUOTED * 2));
  return chars.length > MAX_QUOTED ? `${chars.slice(0, MAX_QUOTED - 3).join('')}...` : text;
}

/** A client's value as JSON for an error message (`"abc"`, `12`, `null`), cut short when long. */
export function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(cut(value));
  return cut(value === undefined ? 'undefined' : JSON.stringify(value));
}
