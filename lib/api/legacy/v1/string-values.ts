import type { ObjectTypeDoc } from '../../../db/collections.js';
import type { MetafieldType } from '../../../types/metafield.js';
import { walkMetafields } from '../../../metafields/walk.js';
import { quote } from '../../../util/quote.js';

/*
 * The v1 client sends every value of a query string, and often of a body, as a string. v1 read
 * a number or switch Metafield's string as the number or boolean it spells; this service stores
 * and compares them typed, so the v1 adapter turns the string into the typed value first (v3
 * never does: its clients send JSON).
 */

const SWITCH_SPELLINGS: Readonly<Record<string, boolean>> = { true: true, yes: true, false: false, no: false };

/** The number `raw` spells ("7", " 2.5 ", "-1e3"), or undefined. */
export function numberOf(raw: string): number | undefined {
  if (raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

/** The boolean a switch string spells (true/false, yes/no: the two option spellings), or undefined. */
export function switchOf(raw: string): boolean | undefined {
  return Object.hasOwn(SWITCH_SPELLINGS, raw) ? SWITCH_SPELLINGS[raw] : undefined;
}

/**
 * A v1 body's string value as the value of its Metafield kind: numbers and switches typed, other
 * kinds and strings that spell nothing left as sent, so the v3 validator names the key. "" stays:
 * it means "no value".
 */
export function typedBodyValue(kind: unknown, value: unknown): unknown {
  if (typeof value !== 'string' || value === '') return value;
  if (kind === 'number') return numberOf(value) ?? value;
  if (kind === 'switch') return switchOf(value) ?? value;
  return value;
}

/** Every Metafield key path of the Bucket's types (`seo.score`, repeater fields as `links.label`) → its kinds. */
export function kindsByPath(types: Iterable<Pick<ObjectTypeDoc, 'metafields'>>): Map<string, Set<MetafieldType>> {
  const out = new Map<string, Set<MetafieldType>>();
  for (const t of types) {
    walkMetafields(t.metafields, undefined, {
      leaf: ({ mf, path }) => {
        const kinds = out.get(path) ?? new Set<MetafieldType>();
        kinds.add(mf.type);
        out.set(path, kinds);
      },
    });
  }
  return out;
}

const OWN_KINDS: ReadonlySet<MetafieldType> = new Set(['number', 'switch']);

/**
 * The v3 condition a v1 query string value for the Metafield at `key` stands for: a number
 * Metafield's as a number, a switch's as a boolean, anything else as the string (`asText`). Two
 * types naming the key differently match either reading; a key no type defines (`kinds`
 * undefined: an Object's own Metafield) matches the string and what it spells. A string no kind of
 * the key can read is a problem naming the parameter and the key.
 */
export function typedQueryValue(
  name: string,
  key: string,
  raw: string,
  kinds: ReadonlySet<MetafieldType> | undefined,
  asText: (raw: string) => unknown,
  report: (problem: string) => void,
): unknown {
  const readings: unknown[] = [];
  const refused: string[] = [];
  // A key no type defines can only be an Object's own Metafield, of any kind: every reading counts.
  for (const kind of kinds ?? OWN_KINDS) {
    if (kind === 'number') {
      const n = numberOf(raw);
      if (n === undefined) refused.push(`is not a number (${key} is a number)`);
      else readings.push(n);
    } else if (kind === 'switch') {
      const b = switchOf(raw);
      if (b === undefined) refused.push(`is not true or false (${key} is a switch)`);
      else readings.push(b);
    }
  }
  const textual = kinds === undefined || [...kinds].some((k) => k !== 'number' && k !== 'switch');
  if (textual) return readings.length === 0 ? asText(raw) : { $in: [raw, ...new Set(readings)] };
  if (readings.length === 0) {
    report(`${name}: ${quote(raw)} ${refused.join(', ')}`);
    return raw;
  }
  const [only] = readings;
  return readings.length === 1 ? only : { $in: [...new Set(readings)] };
}
