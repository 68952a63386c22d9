import type { ErrorObject } from 'ajv';
import type { Metafield } from '../types/metafield.js';
import { isEmptyValue } from './empty.js';
import { kindOf } from './kinds.js';
import { joinPath } from '../util/values.js';
import { ownValue } from '../util/values.js';
import { walkMetafields, type MetafieldAt } from './walk.js';
import { isPlainObject } from '../util/values.js';
import type { BoundsReport } from '../validation/json-bounds.js';
import {
  linearMetafieldRegex,
  regexSubject,
  UNSAFE_REGEX,
  type MetafieldRegexes,
} from '../validation/metadata-regex.js';

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
