import type { ErrorObject } from 'ajv';
import { MAX_REPORTED_PROBLEMS, ValidationErrors } from '../errors/http-errors.js';
import type { BodySchemas } from '../types/bodies.generated.js';
import { instanceSegments, isNode, locate, nodesAt, type Branch, type Located, type Node } from './ajv-locate.js';
import { SCHEMA_IDS, validateBounded, validatorPairFor } from './ajv.js';
import { MAX_FULLY_CHECKED_VALUES } from './limits.js';
import { formatPath } from './paths.js';
import { quote } from '../util/quote.js';

const json = (v: unknown): string => JSON.stringify(v);

/** "a", "b" or "c" */
function orList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

const TYPE_NOUNS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};
const typeNoun = (t: string): string => TYPE_NOUNS[t] ?? `a ${t}`;
const typeList = (t: unknown): string[] =>
  Array.isArray(t) ? t.map(String) : typeof t === 'string' ? t.split(',') : [];

function formatNoun(format: string): string {
  if (format === 'date') return 'a "YYYY-MM-DD" date';
  if (format === 'date-time') return 'an ISO 8601 date-time';
  return `a valid ${format}`;
}

/** A noun phrase for what a schema accepts; `title` lets a schema name itself. */
function describeShape(s: unknown): string {
  if (s === true) return 'any value';
  if (!isNode(s)) return 'nothing';
  if (typeof s.title === 'string') return s.title;
  if ('const' in s) return json(s.const);
  if (Array.isArray(s.enum)) return `one of ${s.enum.map(json).join(', ')}`;
  if (typeof s.$ref === 'string') return `a ${s.$ref.split('/').pop()}`;
  const alternatives = s.anyOf ?? s.oneOf;
  if (Array.isArray(alternatives)) return orList(alternatives.map(describeShape));
  const types = typeList(s.type);
  if (types.length === 0) return 'a valid value';
  return orList(
    types.map((t) => {
      if (t === 'string' && typeof s.format === 'string') return formatNoun(s.format);
      if (t === 'array' && isNode(s.items) && typeof s.items.type === 'string') return `an array of ${s.items.type}s`;
      return typeNoun(t);
    }),
  );
}

/** 'for type "x"', 'when localization is true'; negated for else branches. */
function describeCondition({ ifNode, branch }: Branch): string {
  const props = isNode(ifNode.properties) ? ifNode.properties : {};
  const parts: string[] = [];
  for (const [name, sub] of Object.entries(props)) {
    if (!isNode(sub)) continue;
    const values = 'const' in sub ? [sub.const] : Array.isArray(sub.enum) ? sub.enum : null;
    if (!values) continue;
    const listed = orList(values.map(json));
    if (name === 'type') parts.push(branch === 'then' ? `for type ${listed}` : `for types other than ${listed}`);
    else parts.push(`${branch === 'then' ? 'when' : 'unless'} ${name} is ${listed}`);
  }
  return parts.join(' and ');
}

function describeOne({ error: e, holder, branch }: Located, root: string): string | null {
  const segments = instanceSegments(e.instancePath);
  const path = formatPath(root, segments);
  // Which params exist depends on the keyword; each use below converts what it reads.
  const p: Record<string, unknown> = e.params;
  const cond = branch ? ` ${describeCondition(branch)}`.trimEnd() : '';
  const title = isNode(holder) && typeof holder.title === 'string' ? holder.title : undefined;
  switch (e.keyword) {
    case 'if':
      return null; // always accompanied by the error of the branch that failed
    case 'required':
      return `${formatPath(root, [...segments, String(p.missingProperty)])} is required${cond}`;
    case 'additionalProperties':
      return `unknown field ${json(p.additionalProperty)} in ${path}`;
    case 'unevaluatedProperties':
      return `unknown field ${json(p.unevaluatedProperty)} in ${path}`;
    case 'false schema':
      if (branch?.branch === 'else')
        return `${path} is only allowed ${describeCondition({ ...branch, branch: 'then' })}`;
      return `${path} is not allowed${cond}`;
    case 'type':
      return `${path} must be ${title ?? orList(typeList(p.type).map(typeNoun))}${cond}`;
    case 'format':
      return `${path} must be ${title ?? formatNoun(String(p.format))}${cond}`;
    case 'pattern': {
      // The value is named: a key or slug that breaks the pattern is easier to find by its text.
      const shown = typeof e.data === 'string' ? ` ${quote(e.data)}` : '';
      return `${path}${shown} must be ${title ?? `a string matching /${String(p.pattern)}/`}${cond}`;
    }
    case 'enum':
      return `${path} must be one of ${(p.allowedValues as unknown[]).map(json).join(', ')}${cond}`;
    case 'const':
      return `${path} must be ${json(p.allowedValue)}${cond}`;
    case 'anyOf':
    case 'oneOf': {
      if (Array.isArray(p.passingSchemas)) return `${path} matches more than one allowed shape${cond}`;
      const alternatives = isNode(holder) && Array.isArray(holder[e.keyword]) ? (holder[e.keyword] as unknown[]) : [];
      return `${path} must be ${alternatives.length ? orList(alternatives.map(describeShape)) : 'one of the allowed shapes'}${cond}`;
    }
    case 'minLength':
      return p.limit === 1
        ? `${path} must not be empty${cond}`
        : `${path} must be at least ${String(p.limit)} characters long${cond}`;
    case 'maxLength':
      return `${path} must be at most ${String(p.limit)} characters long${cond}`;
    case 'minItems':
      return p.limit === 1
        ? `${path} must not be empty${cond}`
        : `${path} must have at least ${String(p.limit)} items${cond}`;
    case 'maxItems':
      return `${path} must have at most ${String(p.limit)} items${cond}`;
    case 'uniqueItems':
      return `${path} must not contain duplicates (items ${Math.min(Number(p.i), Number(p.j))} and ${Math.max(Number(p.i), Number(p.j))} are equal)${cond}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${path} must be ${String(p.comparison)} ${String(p.limit)}${cond}`;
    case 'minProperties':
      return `${path} must have at least ${p.limit === 1 ? 'one field' : `${String(p.limit)} fields`}`;
    default:
      return `${path} ${e.message ?? 'is invalid'}${cond}`;
  }
}

/** Every proper prefix of a slash-separated path, ending at a slash ("/a/b" gives "" and "/a"). */
function slashPrefixes(path: string, includeSelf: boolean): string[] {
  const out: string[] = [];
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) out.push(path.slice(0, at));
  if (includeSelf) out.push(path);
  return out;
}

/**
 * anyOf/oneOf report once for the whole value: errors of their branches (below their schema path,
 * at or below their instance path) are dropped. Indexed so each error costs a few lookups, not a
 * scan of every alternative.
 */
function branchErrorFilter(errors: ErrorObject[]): (e: ErrorObject) => boolean {
  const alternatives = new Set(
    errors
      .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
      .map((a) => `${a.schemaPath}|${a.instancePath}`),
  );
  if (alternatives.size === 0) return () => false;
  return (e) => {
    const instances = slashPrefixes(e.instancePath, true);
    return slashPrefixes(e.schemaPath, false).some((sp) => instances.some((ip) => alternatives.has(`${sp}|${ip}`)));
  };
}

export interface Described {
  lines: string[];
  /** Problems beyond `max`, counted but not worded. */
  unlisted: number;
}

/**
 * One short line per mistake, the first `max` of them worded. anyOf/oneOf report once for the
 * whole value, `if` errors are dropped, and the same keyword failing the same way at the same
 * place counts once. `schemaId` (the validated schema) lets conditions and alternatives be
 * looked up; without it every schema in schemas/ is tried. Linear in the number of errors except
 * for the wording, whose schema lookups run only for the problems listed.
 */
export function describeAjvErrorsCapped(
  errors: ErrorObject[] | null | undefined,
  root: string,
  schemaId: string | undefined,
  max: number,
): Described {
  if (!errors || errors.length === 0) return { lines: [], unlisted: 0 };
  const withinAlternative = branchErrorFilter(errors);
  const groups = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    if (withinAlternative(e)) continue;
    const key = `${e.instancePath}|${e.keyword}|${json(e.params)}`;
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  let everySchema: Map<string, Set<Node> | null> | undefined;
  const candidates = (e: ErrorObject): Map<string, Set<Node> | null> =>
    schemaId
      ? nodesAt(schemaId, instanceSegments(e.instancePath))
      : (everySchema ??= new Map(SCHEMA_IDS.map((id) => [id, null])));
  const lines: string[] = [];
  const seen = new Set<string>();
  let unlisted = 0;
  for (const group of groups.values()) {
    if (lines.length >= max) {
      if (group[0]?.keyword !== 'if') unlisted++;
      continue;
    }
    // Of two rules catching the same mistake, the unconditional one reads better.
    let chosen: Located | undefined;
    for (const e of group) {
      const located = locate(e, candidates(e));
      if (!chosen || (chosen.branch && !located.branch)) chosen = located;
    }
    const line = chosen ? describeOne(chosen, root) : null;
    if (line !== null && !seen.has(line)) {
      seen.add(line);
      lines.push(line);
    }
  }
  return { lines: lines.length > 0 || unlisted > 0 ? lines : [`${root} is invalid`], unlisted };
}

/** Every problem, one line each (see describeAjvErrorsCapped). */
export function describeAjvErrors(errors: ErrorObject[] | null | undefined, root: string, schemaId?: string): string[] {
  return describeAjvErrorsCapped(errors, root, schemaId, Infinity).lines;
}

/**
 * Throws one 400 listing the problems of `value` against schemas/<schemaId>.json: the first
 * MAX_REPORTED_PROBLEMS, and how many more there are. Otherwise `value` is known to have the type
 * generated from that schema.
 */
export function assertValid<K extends keyof BodySchemas>(
  schemaId: K,
  value: unknown,
  root: string,
): asserts value is BodySchemas[K] {
  const invalid = validateBounded(validatorPairFor(schemaId), value);
  if (invalid === null) return;
  const errors = new ValidationErrors();
  const { lines, unlisted } = describeAjvErrorsCapped(invalid.errors, root, schemaId, MAX_REPORTED_PROBLEMS);
  for (const line of lines) errors.add(line);
  errors.addUnlisted(unlisted);
  if (invalid.partial)
    errors.add(`only the first problem is listed for a ${root} of more than ${MAX_FULLY_CHECKED_VALUES} values`);
  errors.throwIfAny(`Invalid request ${root}`, 'invalid_body');
}
