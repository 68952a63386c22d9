/**
 * The one operator table of the query language. Validation and translation both dispatch on an
 * entry's value kind, so adding an operator is one line here plus, at most, one new kind.
 *
 * `field`: usable inside a field condition (`{"title": {"$op": ...}}`).
 * `filter`: usable as a key of a filter object (`{"$op": ...}`).
 * `mongo`: the MongoDB operator the translated value is written under.
 *
 * `$not` is accepted at both levels. Field level is MongoDB's own (`{"title": {"$not": {...}}}`).
 * MongoDB has no filter-level `$not`, yet the spec lists it among the logical operators, so
 * `{"$not": {<filter>}}` is accepted too and written as `{"$nor": [<filter>]}`, which matches
 * exactly the documents the sub-filter does not match.
 */

export type ValueKind =
  /** one string, number, boolean or null */
  | 'value'
  /** an array of those */
  | 'values'
  /** a `$regex` pattern string */
  | 'pattern'
  /** a `$options` flag string; consumed together with its `$regex` */
  | 'flags'
  /** a non-empty object of field operators (field-level `$not`) */
  | 'operators'
  /** a non-empty array of filter objects */
  | 'filters'
  /** one filter object (filter-level `$not`) */
  | 'filter';

interface Usage {
  readonly kind: ValueKind;
  readonly mongo: string;
}

interface OperatorSpec {
  readonly field?: Usage;
  readonly filter?: Usage;
}

export const OPERATORS = {
  $eq: { field: { kind: 'value', mongo: '$eq' } },
  $ne: { field: { kind: 'value', mongo: '$ne' } },
  $gt: { field: { kind: 'value', mongo: '$gt' } },
  $gte: { field: { kind: 'value', mongo: '$gte' } },
  $lt: { field: { kind: 'value', mongo: '$lt' } },
  $lte: { field: { kind: 'value', mongo: '$lte' } },
  $in: { field: { kind: 'values', mongo: '$in' } },
  $nin: { field: { kind: 'values', mongo: '$nin' } },
  $all: { field: { kind: 'values', mongo: '$all' } },
  $regex: { field: { kind: 'pattern', mongo: '$regex' } },
  $options: { field: { kind: 'flags', mongo: '$options' } },
  $not: { field: { kind: 'operators', mongo: '$not' }, filter: { kind: 'filter', mongo: '$nor' } },
  $and: { filter: { kind: 'filters', mongo: '$and' } },
  $or: { filter: { kind: 'filters', mongo: '$or' } },
  $nor: { filter: { kind: 'filters', mongo: '$nor' } },
} as const satisfies Record<`$${string}`, OperatorSpec>;

export type Operator = keyof typeof OPERATORS;

/** Own-property check: `constructor` or `__proto__` must never resolve through the prototype. */
export function isOperator(name: string): name is Operator {
  return Object.hasOwn(OPERATORS, name);
}

export function fieldUsage(name: string): Usage | undefined {
  return isOperator(name) ? (OPERATORS[name] as OperatorSpec).field : undefined;
}

export function filterUsage(name: string): Usage | undefined {
  return isOperator(name) ? (OPERATORS[name] as OperatorSpec).filter : undefined;
}
