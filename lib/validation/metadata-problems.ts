import type { ErrorObject } from 'ajv';
import type { Metafield } from '../db/collections.js';
import { isPlainObject } from '../util/plain-object.js';
import { jsonBoundsProblems } from './json-bounds.js';
import { MAX_JSON_VALUE_DEPTH, MAX_OBJECT_KEYS } from './limits.js';
import { isEmptyValue, joinPath, nestedMetafields, optionKey, optionList, ownValue } from './metadata-common.js';
import { regexSubject, unsafeMetafieldRegex, UNSAFE_REGEX, type MetafieldRegexes } from './metadata-regex.js';

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

function quoteList(values: string[]): string {
  return [...new Set(values)].map((v) => JSON.stringify(v)).join(', ');
}

function characters(n: number): string {
  return `${n} character${n === 1 ? '' : 's'}`;
}

/** Code points, as Ajv's minLength/maxLength count them (not graphemes, not UTF-16 units). */
function lengthOf(text: string): number {
  return Array.from(text).length;
}

/** Why `value` does not fit `mf`; only called for values Ajv rejected. */
export function describeValue(mf: Metafield, value: unknown): string {
  if (mf.required === true && isEmptyValue(mf, value)) return 'a value is required';
  switch (mf.type) {
    case 'text':
    case 'textarea':
    case 'html-textarea':
    case 'markdown': {
      if (typeof value !== 'string') return 'must be a string';
      const length = lengthOf(value);
      if (typeof mf.maxlength === 'number' && length > mf.maxlength) {
        return `must NOT have more than ${characters(mf.maxlength)}`;
      }
      if (typeof mf.minlength === 'number' && length < mf.minlength) {
        return `must NOT have fewer than ${characters(mf.minlength)}`;
      }
      return 'must be a string';
    }
    case 'number':
      return 'must be a number';
    case 'date':
      return 'must be a calendar date in the form YYYY-MM-DD';
    case 'switch':
      return 'must be a boolean';
    case 'check-boxes':
      return `must be an array of option values, each one of: ${quoteList(optionList(mf).map((o) => o.value))}`;
    case 'select-dropdown': {
      const options = optionList(mf);
      return `must be one of the option keys or values: ${quoteList([...options.map(optionKey), ...options.map((o) => o.value)])}`;
    }
    case 'radio-buttons':
      return `must be one of the option values: ${quoteList(optionList(mf).map((o) => o.value))}`;
    case 'object':
      return 'must be an Object id (24 hexadecimal characters)';
    case 'objects':
      return 'must be an array of distinct Object ids (24 hexadecimal characters each)';
    case 'file':
      return 'must be the name of a media item (a non-empty string)';
    case 'parent':
      return "must be an object keyed by its children's keys";
    case 'repeater':
      return 'must be an array of objects keyed by its repeater_fields keys';
    default:
      return 'is not a valid value';
  }
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
    if (mf.type === 'parent') {
      at.level = nestedMetafields(mf);
      at.levelPath = at.mfPath;
    } else if (mf.type === 'repeater') {
      const index = segments[i++];
      if (index !== undefined) {
        value = child(value, index);
        at.level = nestedMetafields(mf);
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
  if (isPlainObject(data)) checkInCode(metafields, data, '', problems, regexes);
  return [...problems.values()].map((p) => p.message);
}

/** A `json` value is stored as sent: its nesting, key counts and key names must suit MongoDB. */
function jsonValueProblem(value: unknown, path: string): string | null {
  const bounds = { maxDepth: MAX_JSON_VALUE_DEPTH, maxKeys: MAX_OBJECT_KEYS, storableKeys: true };
  const { problems, unlisted } = jsonBoundsProblems(value, path, bounds);
  const [first] = problems;
  if (first === undefined) return null;
  const more = problems.length - 1 + unlisted;
  return more > 0 ? `${first} (and ${more} more)` : first;
}

/** The checks Ajv does not do: regexes (with JavaScript semantics) and the bounds of `json` values. */
function checkInCode(
  metafields: Metafield[],
  level: Record<string, unknown>,
  prefix: string,
  problems: Map<string, Problem>,
  regexes: MetafieldRegexes,
): void {
  for (const mf of metafields) {
    if (!Object.hasOwn(level, mf.key)) continue;
    const path = joinPath(prefix, mf.key);
    if (problems.has(path)) continue;
    const value = level[mf.key];
    if (mf.type === 'parent' && isPlainObject(value)) {
      checkInCode(nestedMetafields(mf), value, path, problems, regexes);
    } else if (mf.type === 'repeater' && Array.isArray(value)) {
      value.forEach((item, index) => {
        if (isPlainObject(item)) checkInCode(nestedMetafields(mf), item, `${path}.${index}`, problems, regexes);
      });
    } else if (mf.type === 'json') {
      const problem = jsonValueProblem(value, path);
      if (problem !== null) problems.set(path, { message: valueProblem(path, mf.type, problem), shape: false });
    } else if (typeof mf.regex === 'string' && mf.regex !== '') {
      const subject = regexSubject(value);
      const regex = subject === null ? null : regexes.get(mf.regex);
      if (regex === UNSAFE_REGEX) {
        // Saved before regexes were checked: refusing the value is better than freezing the process.
        const detail = `the Metafield's regex cannot be run safely (${unsafeMetafieldRegex(mf.regex) ?? ''}); fix the Object type`;
        problems.set(path, { message: valueProblem(path, mf.type, detail), shape: false });
      } else if (subject !== null && regex && !regex.test(subject)) {
        const detail = mf.regex_message ? mf.regex_message : `must match pattern ${JSON.stringify(mf.regex)}`;
        problems.set(path, { message: valueProblem(path, mf.type, detail), shape: false });
      }
    }
  }
}
