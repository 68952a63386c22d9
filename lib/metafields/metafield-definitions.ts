import type { Metafield, MetafieldOption } from '../types/metafield.js';
import { kindOf } from './kinds.js';
import { MAX_METAFIELD_DEPTH, MAX_METAFIELD_REGEX_LENGTH } from '../validation/limits.js';
import { compileMetafieldRegex, unsafeMetafieldRegex } from '../validation/metadata-regex.js';
import { quote } from '../util/quote.js';

export interface DefinitionContext {
  /** Slug the Object type will have, so a type may relate to itself. */
  ownSlug: string;
  /** Slugs of the other Object types in the Bucket. */
  existingTypeSlugs: ReadonlySet<string>;
}

/** Sorting uses metadata.<key> of Objects, which is capped per type (spec: Limits). */
export const MAX_SORTABLE_METAFIELDS = 2;

/**
 * Keys the schema's pattern lets through that name members of every JavaScript object: a value
 * under "__proto__" can never be written, and code reading by key would find inherited members.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A default value becomes the stored value of every new Object, so it gets the kind's checks (json bounds). */
function defaultValueProblems(m: Metafield, path: string): string[] {
  const check = kindOf(m).check;
  if (!check || m.value === undefined) return [];
  const report = check(m.value, path);
  return report.unlisted > 0 ? [...report.problems, `and ${report.unlisted} more in ${path}`] : report.problems;
}

const times = (n: number): string => (n === 2 ? 'twice' : `${n} times`);

/** Index lists of every value that occurs more than once, in order of first occurrence. */
function duplicates(values: (string | undefined)[]): [string, number[]][] {
  const seen = new Map<string, number[]>();
  values.forEach((v, i) => {
    if (typeof v === 'string') seen.set(v, [...(seen.get(v) ?? []), i]);
  });
  return [...seen].filter(([, at]) => at.length > 1);
}

/**
 * Judged exactly as Object writes will compile it; the engine's reason is added when it has one.
 * A regex that compiles must also be safe to run on the event loop (see unsafeMetafieldRegex).
 */
function checkRegex(regex: string, key: string, path: string, problems: string[]): void {
  if (regex.length <= MAX_METAFIELD_REGEX_LENGTH && compileMetafieldRegex(regex) === null) {
    let reason = '';
    try {
      new RegExp(regex);
    } catch (err) {
      reason = ` (${(err as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '')})`;
    }
    problems.push(`${path}.regex ${JSON.stringify(regex)} is not a valid regular expression${reason}`);
    return;
  }
  const unsafe = unsafeMetafieldRegex(regex);
  if (unsafe !== null) problems.push(`${path}.regex of Metafield ${quote(key)} is not allowed: ${unsafe}`);
}

function checkOptions(m: Metafield, path: string, problems: string[]): void {
  const field = kindOf(m).optionField;
  if (!Array.isArray(m.options) || field === undefined) return;
  const options: MetafieldOption[] = m.options;
  for (const [value, at] of duplicates(options.map((o) => o[field]))) {
    problems.push(`${path}.options[${at[1]}].${field} ${JSON.stringify(value)} is used ${times(at.length)}`);
  }
}

function checkOne(m: Metafield, path: string, ctx: DefinitionContext, level: number, problems: string[]): void {
  if (typeof m.object_type === 'string') {
    if (m.object_type !== ctx.ownSlug && !ctx.existingTypeSlugs.has(m.object_type)) {
      problems.push(`${path}.object_type ${JSON.stringify(m.object_type)} is not an Object type in this Bucket`);
    }
  }
  if (typeof m.regex === 'string') checkRegex(m.regex, m.key, path, problems);
  problems.push(...defaultValueProblems(m, `${path}.value`));
  if (typeof m.minlength === 'number' && typeof m.maxlength === 'number' && m.minlength > m.maxlength) {
    problems.push(`${path}.minlength (${m.minlength}) is greater than maxlength (${m.maxlength})`);
  }
  if (m.sortable === true) {
    if (level > 1) problems.push(`${path}.sortable is only allowed on top-level Metafields`);
    else if (!kindOf(m).sortable) problems.push(`${path}.sortable is not allowed for type ${JSON.stringify(m.type)}`);
  }
  checkOptions(m, path, problems);
  for (const list of kindOf(m).nested?.lists(m) ?? []) {
    checkLevel(list.fields, `${path}.${list.at}`, ctx, level + 1, problems);
  }
}

function checkLevel(
  list: Metafield[] | undefined,
  path: string,
  ctx: DefinitionContext,
  level: number,
  problems: string[],
): void {
  if (!Array.isArray(list) || list.length === 0) return;
  if (level > MAX_METAFIELD_DEPTH) {
    problems.push(`${path} nests Metafields deeper than ${MAX_METAFIELD_DEPTH} levels (parents and repeaters)`);
    return;
  }
  for (const [key, at] of duplicates(list.map((m) => m.key))) {
    problems.push(`${path}[${at[1]}].key ${JSON.stringify(key)} is used ${times(at.length)} at the same level`);
  }
  list.forEach((m, i) => {
    checkKeyed(m, `${path}[${i}]`, ctx, level, problems);
  });
}

function checkKeyed(m: Metafield, path: string, ctx: DefinitionContext, level: number, problems: string[]): void {
  if (RESERVED_KEYS.has(m.key)) {
    problems.push(`${path}.key ${JSON.stringify(m.key)} is reserved: it names a property of every JavaScript object`);
  }
  checkOne(m, path, ctx, level, problems);
}

/**
 * The rules of checkMetafieldDefinitions for one (schema-valid) top-level Metafield sent at
 * `path` on its own, such as an Object's own Metafield in a legacy body.
 */
export function checkMetafieldDefinition(m: Metafield, path: string, ctx: DefinitionContext): string[] {
  const problems: string[] = [];
  checkKeyed(m, path, ctx, 1, problems);
  return problems;
}

/**
 * Rules on a (schema-valid) Metafield list that JSON Schema cannot state. Returns every
 * problem, each naming its path from `metafields`; an empty array means the list is fine.
 *
 * Beyond uniqueness, relations, regex and length rules: `sortable: true` is only accepted on
 * top-level Metafields of sortable kinds, at most MAX_SORTABLE_METAFIELDS of them; option keys
 * (select-dropdown) and option values (radio-buttons, check-boxes) must be unique.
 */
export function checkMetafieldDefinitions(metafields: Metafield[], ctx: DefinitionContext): string[] {
  const problems: string[] = [];
  checkLevel(metafields, 'metafields', ctx, 1, problems);
  if (Array.isArray(metafields)) {
    const sortable = metafields.flatMap((m, i) =>
      m.sortable === true ? [`metafields[${i}] (${JSON.stringify(m.key)})`] : [],
    );
    if (sortable.length > MAX_SORTABLE_METAFIELDS) {
      problems.push(
        `at most ${MAX_SORTABLE_METAFIELDS} Metafields of an Object type may be sortable, found ${sortable.length}: ${sortable.join(', ')}`,
      );
    }
  }
  return problems;
}
