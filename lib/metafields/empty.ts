import type { Metafield } from '../types/metafield.js';
import { kindOf } from './kinds.js';
import { isUnset } from '../util/values.js';

/**
 * What counts as "no value" for `required`: the empty string and null for every kind, and an
 * empty array for the kinds whose empty value is one, where [] carries no selection either.
 */
export function isEmptyValue(mf: Metafield, value: unknown): boolean {
  if (isUnset(value)) return true;
  return Array.isArray(value) && value.length === 0 && Array.isArray(kindOf(mf).empty());
}
