import { isObjectIdHex } from '../util/values.js';
import type { FieldInfo, FieldValueType, FilterContext, Leaf } from './filter-types.js';
import { isPlainObject } from '../util/values.js';
import { quote } from '../util/quote.js';
import { mongoRegexProblem } from '../validation/regex-safety.js';
import { classifyField } from './classify-field.js';
import { parseIsoDate } from './iso-date.js';
import { describeJson } from './parse-query-param.js';
import { fieldUsage, filterUsage, type ValueKind } from './operators.js';
import { MAX_FILTER_NODES, MAX_LIST_VALUES, MAX_LOGICAL_DEPTH, MAX_REGEX_LENGTH, REGEX_FLAGS } from './limits.js';

function isLeaf(value: unknown): value is Leaf {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

const LEAF_TYPES = 'a string, number, boolean or null';

/** Per value type: the problem with one leaf value, if any. */
const LEAF_RULES: Record<FieldValueType, (v: Leaf) => string | undefined> = {
  text: () => undefined,
  id: (v) => (isObjectIdHex(v) ? undefined : `${quote(v)} is not a valid Object id (24 hexadecimal characters)`),
  ref: (v) =>
    v === null || isObjectIdHex(v) ? undefined : `${quote(v)} is not a valid Object id (24 hexadecimal characters)`,
  date: (v) =>
    v === null || (typeof v === 'string' && parseIsoDate(v))
      ? undefined
      : `${quote(v)} is not a valid ISO 8601 date (e.g. 2024-05-01 or 2024-05-01T12:00:00Z)`,
  number: (v) => (v === null || typeof v === 'number' ? undefined : `${quote(v)} is not a number`),
};

interface Site {
  at: string;
  depth: number;
  field?: FieldInfo;
  /** The operator object holding the value, for operators that read a sibling ($regex/$options). */
  siblings?: Record<string, unknown>;
  insideNot?: boolean;
}

/** JS flags equivalent to the Mongo ones for a compile check; `x` has no JS counterpart. */
function jsFlags(options: unknown): string {
  if (typeof options !== 'string') return '';
  return [...new Set(options)].filter((f) => f === 'i' || f === 'm' || f === 's').join('');
}

class FilterValidator {
  readonly problems: string[] = [];
  private nodes = 0;
  private stopped = false;

  constructor(private readonly ctx: FilterContext) {}

  private add(at: string, message: string): void {
    this.problems.push(at ? `${at}: ${message}` : message);
  }

  /** Counts one node; false once the filter is too large to keep walking. */
  private visit(): boolean {
    if (this.stopped) return false;
    if (++this.nodes > MAX_FILTER_NODES) {
      this.add('', `query has more than ${MAX_FILTER_NODES} conditions`);
      this.stopped = true;
      return false;
    }
    return true;
  }

  filter(obj: Record<string, unknown>, loc: string, depth: number): void {
    for (const [key, value] of Object.entries(obj)) {
      if (!this.visit()) return;
      const at = loc ? `${loc}.${key}` : key;
      if (key.startsWith('$')) {
        const usage = filterUsage(key);
        if (usage) this.kinds[usage.kind]({ at, depth }, value);
        else if (fieldUsage(key)) this.add(at, `${key} must be applied to a field, e.g. {"title": {"${key}": ...}}`);
        else this.add(at, `unsupported operator "${key}"`);
        continue;
      }
      const field = classifyField(key, this.ctx);
      if (typeof field === 'string') this.add(at, field);
      else this.condition(value, { at, depth, field });
    }
  }

  private condition(value: unknown, site: Site): void {
    if (Array.isArray(value)) {
      this.add(site.at, 'an array value needs an operator: $in, $nin or $all');
    } else if (isPlainObject(value)) {
      const keys = Object.keys(value);
      if (keys.length === 0) this.add(site.at, 'an empty object is not a condition; use a value or operators');
      else if (!keys.some((k) => k.startsWith('$'))) {
        this.add(site.at, 'objects are not allowed as values; use operators such as $eq or $in');
      } else this.operators(value, site);
    } else this.leaf(value, site);
  }

  private operators(obj: Record<string, unknown>, site: Site): void {
    if (Object.hasOwn(obj, '$options') && !Object.hasOwn(obj, '$regex')) {
      this.add(`${site.at}.$options`, '$options needs $regex alongside');
    }
    for (const [op, value] of Object.entries(obj)) {
      if (!this.visit()) return;
      const at = `${site.at}.${op}`;
      const usage = fieldUsage(op);
      const allowed = site.field?.operators;
      if (usage && allowed && !allowed.has(op))
        this.add(at, `${op} does not apply here; use ${[...allowed].join(', ')}`);
      else if (usage) this.kinds[usage.kind]({ ...site, at, siblings: obj }, value);
      else if (!op.startsWith('$')) this.add(at, `"${op}" is not an operator; a condition object holds only operators`);
      else if (filterUsage(op)) this.add(at, `${op} is not allowed inside a field condition; use it at filter level`);
      else this.add(at, `unsupported operator "${op}"`);
    }
  }

  private leaf(value: unknown, site: Site): void {
    if (!isLeaf(value)) {
      this.add(site.at, `must be ${LEAF_TYPES}, got ${describeJson(value)}`);
      return;
    }
    const problem = site.field && LEAF_RULES[site.field.valueType](value);
    if (problem) this.add(site.at, problem);
  }

  private nested(site: Site, entry: unknown, at: string): void {
    if (!isPlainObject(entry)) this.add(at, `must be a filter object, got ${describeJson(entry)}`);
    else if (site.depth + 1 > MAX_LOGICAL_DEPTH) {
      this.add(at, `logical operators nested deeper than ${MAX_LOGICAL_DEPTH} levels`);
    } else this.filter(entry, at, site.depth + 1);
  }

  /** One checker per value kind of the operator table. */
  private readonly kinds: Record<ValueKind, (site: Site, value: unknown) => void> = {
    value: (site, value) => {
      this.leaf(value, site);
    },
    values: (site, value) => {
      if (!Array.isArray(value)) {
        this.add(site.at, `must be an array, got ${describeJson(value)}`);
        return;
      }
      if (value.length > MAX_LIST_VALUES) {
        this.add(site.at, `more than ${MAX_LIST_VALUES} values`);
        return;
      }
      value.forEach((v, i) => {
        this.leaf(v, { ...site, at: `${site.at}[${i}]` });
      });
    },
    pattern: (site, value) => {
      if (site.field && site.field.valueType !== 'text') {
        const what = site.field.valueType === 'number' ? 'numbers' : 'ids or dates';
        this.add(site.at, `$regex applies only to text keys, not to ${what}`);
        return;
      }
      if (typeof value !== 'string') {
        this.add(site.at, `must be a string, got ${describeJson(value)}`);
        return;
      }
      if (value.length > MAX_REGEX_LENGTH) {
        this.add(site.at, `longer than ${MAX_REGEX_LENGTH} characters`);
        return;
      }
      const options = site.siblings?.$options;
      try {
        new RegExp(value, jsFlags(options));
      } catch (err) {
        this.add(site.at, `invalid regular expression: ${err instanceof Error ? err.message : quote(value)}`);
        return;
      }
      const unsafe = mongoRegexProblem(value, typeof options === 'string' ? options : '');
      if (unsafe !== null) this.add(site.at, `unsafe regular expression: ${unsafe}`);
    },
    flags: (site, value) => {
      if (typeof value !== 'string') {
        this.add(site.at, `must be a string of flags, got ${describeJson(value)}`);
        return;
      }
      // By code point, so a stray non-ASCII character is reported whole rather than as half a surrogate pair.
      const bad = Array.from(value).filter((f) => !REGEX_FLAGS.includes(f));
      if (bad.length > 0) {
        this.add(
          site.at,
          `unsupported flag(s) ${quote(bad.join(''))}; allowed flags are ${REGEX_FLAGS.split('').join(', ')}`,
        );
      } else if (new Set(value).size !== value.length) this.add(site.at, 'repeats a flag');
    },
    operators: (site, value) => {
      if (site.insideNot) {
        this.add(site.at, '$not cannot be nested in $not');
        return;
      }
      if (!isPlainObject(value) || Object.keys(value).length === 0) {
        this.add(site.at, 'must be a non-empty object of operators, e.g. {"$regex": "^a"}');
        return;
      }
      this.operators(value, { ...site, insideNot: true });
    },
    filters: (site, value) => {
      if (!Array.isArray(value) || value.length === 0) {
        this.add(site.at, 'must be a non-empty array of filter objects');
        return;
      }
      value.forEach((entry, i) => {
        this.nested(site, entry, `${site.at}[${i}]`);
      });
    },
    filter: (site, value) => {
      this.nested(site, value, site.at);
    },
  };
}

/**
 * Every problem of a filter, empty when it may be translated. Runs before translation so the
 * translator can trust its input and a client sees all mistakes in one 400.
 */
export function validateFilter(query: unknown, ctx: FilterContext): string[] {
  if (!isPlainObject(query)) return [`query must be a JSON object, got ${describeJson(query)}`];
  const validator = new FilterValidator(ctx);
  validator.filter(query, '', 0);
  return validator.problems;
}
