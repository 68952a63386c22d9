import { escapeRegex } from '../util/escape-regex.js';
import { quote } from '../util/quote.js';

/**
 * v1 filter parameters a list route would otherwise ignore, answering every Object as if
 * unfiltered: each is refused with the v3 way to say the same, so a half-migrated client fails
 * loudly instead of showing wrong content. Bracketed names (`metadata[color]`) match by prefix.
 */
/** v1's comma-separated ids as the `$in` that means "any of them"; one value stays itself. */
function ids(raw: string): { $in: string[] } | undefined {
  return raw.includes(',') ? { $in: raw.split(',') } : undefined;
}

const V1_ONLY: readonly { name: string; bracketed: boolean; advice: (raw: string, inner: string) => string }[] = [
  { name: 'type', bracketed: false, advice: (raw) => `query=${JSON.stringify({ type: raw || 'posts' })}` },
  {
    name: 'q',
    bracketed: false,
    advice: (raw) => {
      const word = { $regex: escapeRegex(raw || 'word'), $options: 'i' };
      return `query=${JSON.stringify({ $or: [{ title: word }, { content: word }] })}`;
    },
  },
  { name: 'locale', bracketed: false, advice: (raw) => `query=${JSON.stringify({ locale: raw || 'en' })}` },
  { name: 'hide_metafields', bracketed: false, advice: () => 'props=id,title,slug (list the properties to return)' },
  {
    name: 'metadata',
    bracketed: true,
    advice: (raw, inner) => `query=${JSON.stringify({ [`metadata.${inner || 'key'}`]: ids(raw) ?? (raw || 'value') })}`,
  },
  {
    name: 'filters',
    bracketed: true,
    advice: (raw, inner) =>
      inner === '_id'
        ? `query=${JSON.stringify({ id: ids(raw) ?? (raw || '<id>') })}`
        : `query=${JSON.stringify({ 'metadata.<key>': raw || '<id>' })} (a relationship Metafield by the related Object's id)`,
  },
  { name: 'created_by', bracketed: false, advice: (raw) => `query=${JSON.stringify({ created_by: raw || '<id>' })}` },
  {
    name: 'metafield_key',
    bracketed: false,
    advice: (raw) => `query=${JSON.stringify({ [`metadata.${raw || 'key'}`]: '<value>' })}`,
  },
  { name: 'metafield_value', bracketed: false, advice: (raw) => `query=${JSON.stringify({ 'metadata.<key>': raw })}` },
  {
    name: 'metafield_object_id',
    bracketed: false,
    advice: (raw) => `query=${JSON.stringify({ 'metadata.<key>': raw || '<id>' })}`,
  },
];

/** One problem per v1-only parameter present in a parsed query string, in the order sent. */
export function v1ListParamProblems(query: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  for (const [sent, value] of Object.entries(query)) {
    const bracket = /^([a-z_]+)\[([^\]]*)\]/.exec(sent);
    const rule = V1_ONLY.find((r) => (r.bracketed ? bracket?.[1] === r.name : sent === r.name));
    if (!rule) continue;
    // Bounded: the advice echoes the value, and one huge value must not bloat the 400.
    const raw = typeof value === 'string' ? value.slice(0, 60) : '';
    const inner = bracket?.[2] ?? '';
    problems.push(`${quote(sent)} is a v1 parameter this API does not take; in v3 use ${rule.advice(raw, inner)}`);
  }
  return problems;
}
