import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { loadSchemas } from '../schemas.js';
import { countJsonValues } from './json-bounds.js';
import { MAX_FULLY_CHECKED_VALUES } from './limits.js';

// ajv-formats is CommonJS: the default import is its module.exports, which carries the plugin as `.default`.
const addFormats = addFormatsModule.default;

/**
 * Every Ajv of the service is configured alike. With allErrors one 400 lists every problem
 * (verbose: with the failing values, for messages); without it validation stops at the first
 * problem, which is what a valid value costs.
 */
export function newAjv(options: Options = { allErrors: true, verbose: true }): Ajv2020 {
  const instance = new Ajv2020({ strict: true, allowUnionTypes: true, ...options });
  addFormats(instance);
  return instance;
}

const fileSchemas = loadSchemas();

function withFileSchemas(instance: Ajv2020): Ajv2020 {
  for (const schema of fileSchemas) instance.addSchema(schema);
  return instance;
}

/**
 * The files in schemas/, each registered under its `$id` in two instances: `ajv` reports every
 * problem, and its cost grows with the number of problems (a few µs each), so it only runs on
 * values known to be invalid and not too large (see validateBounded); `ajvFirstError` stops at
 * the first. They hold only what the files say (compiled lazily, the same in every app), so they
 * are shared; validators compiled from stored Object types are per app (see metadata-schema.ts).
 */
export const ajv = withFileSchemas(newAjv());
export const ajvFirstError = withFileSchemas(newAjv({ allErrors: false }));

/** The `$id` of every schema in schemas/. */
export const SCHEMA_IDS: readonly string[] = fileSchemas.map((s) => s.$id);

function lookup(from: Ajv2020, id: string): ValidateFunction {
  const validate = from.getSchema(id);
  if (!validate) throw new Error(`No schema "${id}" in schemas/`);
  return validate;
}

/** The validator of schemas/<id>.json that reports every problem. */
export function validatorFor(id: string): ValidateFunction {
  return lookup(ajv, id);
}

/** One schema compiled both ways. */
export interface ValidatorPair {
  first: ValidateFunction;
  all: ValidateFunction;
}

export function validatorPairFor(id: string): ValidatorPair {
  return { first: lookup(ajvFirstError, id), all: lookup(ajv, id) };
}

export interface Invalid {
  errors: ErrorObject[];
  /** True when the value was too large to look for every problem: only the first is known. */
  partial: boolean;
}

/**
 * Null for a valid value; otherwise its problems. Every problem is looked for only in values of
 * at most MAX_FULLY_CHECKED_VALUES keys and items, which bounds what a hostile body can cost.
 */
export function validateBounded(pair: ValidatorPair, value: unknown): Invalid | null {
  if (pair.first(value)) return null;
  const firstErrors = [...(pair.first.errors ?? [])];
  if (countJsonValues(value, MAX_FULLY_CHECKED_VALUES) > MAX_FULLY_CHECKED_VALUES) {
    return { errors: firstErrors, partial: true };
  }
  pair.all(value);
  return { errors: [...(pair.all.errors ?? firstErrors)], partial: false };
}
