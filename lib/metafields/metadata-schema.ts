// An Object's metadata checked against its type: the JSON Schema Ajv runs (compiled once per type
// revision), then the checks made in code, each problem said in one sentence per key.
import { LRUCache } from 'lru-cache';
import type { ObjectTypeDoc } from '../db/collections.js';
import type { Metafield } from '../types/metafield.js';
import type { OwnVariant } from './own.js';
import type { NestedSchemas, Schema } from './kind.js';
import { kindOf } from './kinds.js';
import { newAjv, validateBounded } from '../validation/ajv.js';
import { MAX_FULLY_CHECKED_VALUES } from '../validation/limits.js';
import type { ErrorObject } from 'ajv';
import { isEmptyValue } from './empty.js';
import { isPlainObject, joinPath, ownValue } from '../util/values.js';
import { walkMetafields, type MetafieldAt } from './walk.js';
import type { BoundsReport } from '../validation/json-bounds.js';
import { linearMetafieldRegex, regexSubject, UNSAFE_REGEX, MetafieldRegexes } from '../validation/metadata-regex.js';

export type MetadataMode = 'create' | 'patch';

/** "" and null mean "no value" for every non-required Metafield, whatever its kind. */
const EMPTY: Schema = { enum: ['', null] };

/**
 * The JSON Schema (draft 2020-12) of an Object's `metadata` for one Object type, from each
 * kind's `value` schema. Create mode lists required keys; patch mode checks only the keys sent,
 * at every depth of parents, as a patch changes only those (the write then checks `required`
 * on the result, see missingRequired). A repeater item replaces its whole stored value, so items
 * always use create rules. `regex` is deliberately absent: it is checked in code with JavaScript
 * semantics so that `regex_message` can be reported (see MetadataValidators).
 */
export function metadataJsonSchema(metafields: Metafield[], mode: MetadataMode): object {
  return (mode === 'create' ? CREATE : PATCH).level(metafields);
}

const CREATE: NestedSchemas = {
  level: (fields) => levelSchema(fields, true, CREATE),
  item: (fields) => levelSchema(fields, true, CREATE),
};
const PATCH: NestedSchemas = {
  level: (fields) => levelSchema(fields, false, PATCH),
  item: CREATE.item,
};

function levelSchema(metafields: Metafield[], requireKeys: boolean, nested: NestedSchemas): Schema {
  // fromEntries defines own properties, so a key like "__proto__" cannot alter the prototype.
  const properties = Object.fromEntries(metafields.map((mf) => [mf.key, valueSchema(mf, nested)]));
  const required = requireKeys ? metafields.filter((mf) => mf.required === true).map((mf) => mf.key) : [];
  return {
    type: 'object',
    properties,
    additionalProperties: false,
    ...(required.length > 0 ? { required: [...new Set(required)] } : {}),
  };
}

function valueSchema(mf: Metafield, nested: NestedSchemas): Schema {
  const kind = kindOf(mf);
  const shape = kind.value(mf, nested);
  // Where "" and null are values (json), `required` refuses exactly those.
  if (kind.emptyIsValue === true) return mf.required === true ? { ...shape, not: EMPTY } : shape;
  return mf.required === true ? shape : { anyOf: [EMPTY, shape] };
}

export type MetadataValidator = (metadata: unknown) => string[];

/** The fields of an Object type the validator depends on; `slug` only names the type in messages. */
export type MetadataTypeInput = Pick<ObjectTypeDoc, '_id' | 'modified_at' | 'metafields'> & {
  slug?: string;
} & OwnVariant;

export const METADATA_VALIDATOR_CACHE_LIMIT = 500;

interface CacheEntry {
  stamp: number;
  /** The schema object each Ajv instance compiled (and keeps until it is removed). */
  schemas: [object, object];
  validate: MetadataValidator;
}

/**
 * Validators of `metadata` compiled from stored Object types, one per (type, mode, slug, own Metafields), with
 * their own Ajv and regexes: one per app (see lib/app-state.ts), so apps on different
 * databases never see each other's types. A newer modified_at replaces the entry in place, so
 * stale validators of an edited type never linger; the least recently used goes first.
 */
export class MetadataValidators {
  private readonly ajv = newAjv();
  private readonly ajvFirstError = newAjv({ allErrors: false });
  private readonly regexes = new MetafieldRegexes();
  private readonly entries = new LRUCache<string, CacheEntry>({
    max: METADATA_VALIDATOR_CACHE_LIMIT,
    // Replaced or evicted: Ajv keeps every compiled schema object in its own cache; without this it would grow forever.
    dispose: (entry) => {
      this.ajv.removeSchema(entry.schemas[0]);
      this.ajvFirstError.removeSchema(entry.schemas[1]);
    },
  });

  /**
   * A validator for the `metadata` of Objects of `type`, compiled once per type revision.
   * It returns one message per offending key; an empty list means valid.
   */
  for(type: MetadataTypeInput, mode: MetadataMode): MetadataValidator {
    // An Object with own Metafields validates by its type's and its own: one entry per such set.
    const key = `${String(type._id)}|${mode}|${type.slug ?? ''}|${type.own_variant ?? ''}`;
    const stamp = type.modified_at.getTime();
    const hit = this.entries.get(key);
    if (hit && hit.stamp === stamp) return hit.validate;

    const metafields = type.metafields;
    // Each instance gets its own copy: Ajv caches compiled code by schema object.
    const schemas: [object, object] = [metadataJsonSchema(metafields, mode), metadataJsonSchema(metafields, mode)];
    const pair = { all: this.ajv.compile(schemas[0]), first: this.ajvFirstError.compile(schemas[1]) };
    const typeSlug = type.slug;
    const regexes = this.regexes;
    const validate: MetadataValidator = (metadata) => {
      const invalid = validateBounded(pair, metadata);
      const problems = metadataProblems(metafields, metadata, invalid?.errors ?? [], regexes, typeSlug);
      if (invalid?.partial)
        problems.push(`only the first problem is listed for metadata of more than ${MAX_FULLY_CHECKED_VALUES} values`);
      return problems;
    };
    this.entries.set(key, { stamp, schemas, validate });
    return validate;
  }
}

/**
 * Ajv says which value failed; the wording comes from the Metafield and the value itself, so a
 * client reads one sentence per key instead of every anyOf branch Ajv tried.
 */

export function valueProblem(key: string, type: string, detail: string): string {
  return `invalid value for key "${key}" of type "${type}": ${detail}`;
}

export function unknownKeyProblem(key: string, typeSlug: string | undefined): string {
  const type = typeSlug === undefined ? 'this Object type' : `the type "${typeSlug}"`;
  return `unknown metadata key "${key}": ${type} defines no such Metafield`;
}

/** Why `value` does not fit `mf`; only called for values Ajv rejected. */
export function describeValue(mf: Metafield, value: unknown): string {
  if (mf.required === true && isEmptyValue(mf, value)) return 'a value is required';
  return kindOf(mf).describe(mf, value);
}

interface Location {
  /** The deepest Metafield on the path, or null for the metadata object itself. */
  mf: Metafield | null;
  mfPath: string;
  mfValue: unknown;
  /** When the path ends on a level of keys (metadata, a parent, a repeater item): its fields. */
  level: Metafield[] | null;
  levelPath: string;
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function child(value: unknown, segment: string): unknown {
  if (Array.isArray(value)) return value[Number(segment)];
  return isPlainObject(value) ? ownValue(value, segment) : undefined;
}

function locate(metafields: Metafield[], data: unknown, instancePath: string): Location {
  const segments = instancePath === '' ? [] : instancePath.slice(1).split('/').map(unescapePointer);
  const at: Location = { mf: null, mfPath: '', mfValue: data, level: metafields, levelPath: '' };
  let value = data;
  for (let i = 0; at.level;) {
    const segment = segments[i++];
    if (segment === undefined) break;
    const mf = at.level.find((m) => m.key === segment);
    if (!mf) break;
    at.mf = mf;
    at.mfPath = joinPath(at.levelPath, segment);
    value = at.mfValue = child(value, segment);
    at.level = null;
    const nested = kindOf(mf).nested;
    if (nested && !nested.repeats) {
      at.level = nested.fields(mf);
      at.levelPath = at.mfPath;
    } else if (nested) {
      const index = segments[i++];
      if (index !== undefined) {
        value = child(value, index);
        at.level = nested.fields(mf);
        at.levelPath = `${at.mfPath}.${index}`;
      }
    }
  }
  return at;
}

interface Problem {
  message: string;
  /** Shape problems of a container are Ajv's echo of a problem further down; those are dropped. */
  shape: boolean;
}

/**
 * One message per offending key, from Ajv's errors plus the regex checks Ajv does not do.
 * Regexes run only on keys that passed the schema, so a key never gets two messages.
 */
export function metadataProblems(
  metafields: Metafield[],
  data: unknown,
  errors: ErrorObject[],
  regexes: MetafieldRegexes,
  typeSlug?: string,
): string[] {
  const problems = new Map<string, Problem>();
  const add = (key: string, problem: Problem) => {
    if (!problems.has(key)) problems.set(key, problem);
  };
  for (const error of errors) {
    const at = locate(metafields, data, error.instancePath);
    if (error.keyword === 'required' && at.level) {
      const key = String((error.params as { missingProperty: unknown }).missingProperty);
      const mf = at.level.find((m) => m.key === key);
      const path = joinPath(at.levelPath, key);
      add(path, { message: valueProblem(path, mf?.type ?? 'unknown', 'a value is required'), shape: false });
    } else if (error.keyword === 'additionalProperties' && at.level) {
      const path = joinPath(at.levelPath, String((error.params as { additionalProperty: unknown }).additionalProperty));
      add(path, { message: unknownKeyProblem(path, typeSlug), shape: false });
    } else if (at.mf) {
      add(at.mfPath, { message: valueProblem(at.mfPath, at.mf.type, describeValue(at.mf, at.mfValue)), shape: true });
    } else {
      add('', { message: 'invalid metadata: must be an object keyed by Metafield keys', shape: true });
    }
  }
  // Every proper prefix of every problem's key, so a container's echo is found in one lookup.
  const ancestors = new Set<string>();
  for (const key of problems.keys()) {
    if (key !== '') ancestors.add('');
    for (let dot = key.indexOf('.'); dot !== -1; dot = key.indexOf('.', dot + 1)) ancestors.add(key.slice(0, dot));
  }
  for (const [key, problem] of problems) {
    if (problem.shape && ancestors.has(key)) problems.delete(key);
  }
  if (isPlainObject(data)) checkInCode(metafields, data, problems, regexes);
  return [...problems.values()].map((p) => p.message);
}

/** Several problems of one value as one message. */
function condense({ problems, unlisted }: BoundsReport): string | null {
  const [first] = problems;
  if (first === undefined) return null;
  const more = problems.length - 1 + unlisted;
  return more > 0 ? `${first} (and ${more} more)` : first;
}

/** Why a value fails its Metafield's regex, or null; run with JavaScript semantics, which Ajv lacks. */
function regexProblem(mf: Metafield, value: unknown, regexes: MetafieldRegexes): string | null {
  if (typeof mf.regex !== 'string' || mf.regex === '') return null;
  const subject = regexSubject(value);
  const regex = subject === null ? null : regexes.get(mf.regex);
  if (regex === UNSAFE_REGEX) {
    // Saved before regexes were checked: refusing the value is better than freezing the process.
    const linear = linearMetafieldRegex(mf.regex);
    return `the Metafield's regex cannot be run safely (${'problem' in linear ? linear.problem : ''}); fix the Object type`;
  }
  if (subject === null || !regex || regex.test(subject)) return null;
  return mf.regex_message ? mf.regex_message : `must match pattern ${JSON.stringify(mf.regex)}`;
}

/** The checks Ajv does not do (kinds' own checks, regexes), on keys the schema found no fault with. */
function checkInCode(
  metafields: Metafield[],
  metadata: Record<string, unknown>,
  problems: Map<string, Problem>,
  regexes: MetafieldRegexes,
): void {
  walkMetafields(metafields, metadata, {
    enter: ({ path }) => !problems.has(path),
    leaf: ({ mf, value, path }) => {
      if (problems.has(path)) return;
      const check = kindOf(mf).check;
      const problem = check ? condense(check(value, path)) : regexProblem(mf, value, regexes);
      if (problem !== null) problems.set(path, { message: valueProblem(path, mf.type, problem), shape: false });
    },
  });
}

/**
 * Every required Metafield without a value in an Object's whole stored metadata, at any depth,
 * each as the usual message naming key and type. Run on the result of a write, so a value a
 * patch did not send is judged as stored.
 */
export function missingRequired(metafields: Metafield[], stored: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const check = ({ mf, value, path }: MetafieldAt) => {
    if (mf.required === true && isEmptyValue(mf, value)) {
      problems.push(valueProblem(path, mf.type, 'a value is required'));
    }
  };
  walkMetafields(metafields, stored, {
    absent: true,
    enter: (at) => {
      check(at);
      return true;
    },
    leaf: check,
  });
  return problems;
}
