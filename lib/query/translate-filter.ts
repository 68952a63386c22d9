import { ObjectId } from 'mongodb';
import { ValidationErrors } from '../errors/http-errors.js';
import { parseIsoDate } from './iso-date.js';
import { fieldUsage, filterUsage, type ValueKind } from './operators.js';
import { parseQueryParam } from './parse-query-param.js';
import { isPlainObject } from '../util/values.js';
import { classifyField } from './classify-field.js';
import { validateFilter } from './validate-filter.js';
import type { FieldInfo, FieldValueType, FilterContext, Leaf } from './filter-types.js';

export type { FilterContext } from './filter-types.js';

/** API value → stored value, per value type; nulls pass through so `{key: null}` still means unset. */
const CONVERT: Record<FieldValueType, (v: unknown) => unknown> = {
  text: (v) => v,
  id: (v) => new ObjectId(v as string),
  ref: (v) => (v === null ? null : new ObjectId(v as string)),
  date: (v) => (v === null ? null : parseIsoDate(v as string)),
  number: (v) => v,
};

interface Site {
  ctx: FilterContext;
  field?: FieldInfo;
  siblings: Record<string, unknown>;
}

/** Where one queried value stands for several stored ones, each equality operator tests the set. */
const EXPANDED: Readonly<Record<string, string>> = { $eq: '$in', $ne: '$nin', $in: '$in', $nin: '$nin' };

function expanded(values: unknown[], field: FieldInfo | undefined): unknown[] {
  const expand = field?.expand;
  return expand ? [...new Set(values.flatMap((v) => expand(v as Leaf)))] : values.map((v) => convert(v, field));
}

/** Each kind's translation: the properties it contributes under the operator's Mongo name. */
const TRANSLATE: Record<ValueKind, (value: unknown, mongo: string, site: Site) => Record<string, unknown>> = {
  value: (value, mongo, site) =>
    site.field?.expand
      ? { [EXPANDED[mongo] ?? mongo]: expanded([value], site.field) }
      : { [mongo]: convert(value, site.field) },
  values: (value, mongo, site) => ({ [EXPANDED[mongo] ?? mongo]: expanded(value as unknown[], site.field) }),
  // Always paired with $options so the stored form is one shape whether or not flags were sent.
  pattern: (value, mongo, site) => ({ [mongo]: value, $options: site.siblings.$options ?? '' }),
  flags: () => ({}),
  operators: (value, mongo, site) => ({ [mongo]: translateOperators(value as Record<string, unknown>, site) }),
  filters: (value, mongo, site) => ({
    [mongo]: (value as Record<string, unknown>[]).map((f) => translateFilter(f, site.ctx)),
  }),
  filter: (value, mongo, site) => ({ [mongo]: [translateFilter(value as Record<string, unknown>, site.ctx)] }),
};

function convert(value: unknown, field: FieldInfo | undefined): unknown {
  return field ? CONVERT[field.valueType](value) : value;
}

function translateOperators(ops: Record<string, unknown>, site: Site): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [op, value] of Object.entries(ops)) {
    const usage = fieldUsage(op);
    if (!usage) throw new Error(`translateOperators: ${op} is not a field operator; validateFilter lets none through`);
    for (const [mongo, operand] of Object.entries(
      TRANSLATE[usage.kind](value, usage.mongo, { ...site, siblings: ops }),
    )) {
      const prior = out[mongo];
      out[mongo] = Array.isArray(prior) && Array.isArray(operand) ? bothLists(mongo, prior, operand) : operand;
    }
  }
  return out;
}

/** An expanded $eq and $in (or $ne and $nin) land on one operator: both conditions must hold. */
function bothLists(mongo: string, a: unknown[], b: unknown[]): unknown[] {
  return mongo === '$nin' ? [...new Set([...a, ...b])] : a.filter((v) => b.includes(v));
}

/**
 * A validated filter in storage terms. Assumes `validateFilter` found no problems: it does not
 * re-check anything. Filter-level outputs are arrays and are concatenated when two operators
 * write the same one (`$nor` together with a filter-level `$not`), which keeps both meanings.
 */
export function translateFilter(query: Record<string, unknown>, ctx: FilterContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const usage = filterUsage(key);
    if (usage) {
      const [entry] = Object.entries(TRANSLATE[usage.kind](value, usage.mongo, { ctx, siblings: query }));
      if (!entry) throw new Error(`translateFilter: ${key} translated to nothing`);
      const [mongo, clauses] = entry;
      const prior: unknown = out[mongo];
      out[mongo] = Array.isArray(prior) ? [...(prior as unknown[]), ...(clauses as unknown[])] : clauses;
      continue;
    }
    const field = classifyField(key, ctx) as FieldInfo;
    const condition = isPlainObject(value)
      ? translateOperators(value, { ctx, field, siblings: value })
      : field.expand
        ? { $in: expanded([value], field) }
        : convert(value, field);
    // Two keys may read one stored value (a select-dropdown's .key and .value): both must hold.
    if (Object.hasOwn(out, field.storagePath)) {
      const both: unknown = out.$and;
      out.$and = [...(Array.isArray(both) ? (both as unknown[]) : []), { [field.storagePath]: condition }];
    } else out[field.storagePath] = condition;
  }
  return out;
}

/** The `query` parameter as a MongoDB filter, or one 400 listing every problem with it. */
export function compileFilter(raw: string | undefined, ctx: FilterContext): Record<string, unknown> {
  const query = parseQueryParam(raw);
  const problems = validateFilter(query, ctx);
  const errors = new ValidationErrors();
  for (const problem of problems) errors.add(problem);
  errors.throwIfAny('Invalid query', 'invalid_query');
  return translateFilter(query, ctx);
}
