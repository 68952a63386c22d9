import { quote } from '../util/quote.js';

/** Longer keys are quoted (and cut short) rather than written as `.key`. */
const MAX_SHOWN_KEY = 60;

/**
 * A location as clients write it in JavaScript: body.metafields[2].options, body["odd key"].
 * Numbers and digit-only strings are array indexes.
 */
export function formatPath(root: string, segments: readonly (string | number)[]): string {
  let out = root;
  for (const s of segments) {
    if (typeof s === 'number' || /^\d+$/.test(s)) out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(s) && s.length <= MAX_SHOWN_KEY) out += `.${s}`;
    else out += `[${quote(s)}]`;
  }
  return out;
}
