import type { Metafield } from '../types/metafield.js';
import { isEmptyValue } from './empty.js';
import { walkMetafields, type MetafieldAt } from './walk.js';
import { valueProblem } from './metadata-problems.js';

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
