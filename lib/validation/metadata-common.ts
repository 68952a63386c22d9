import type { Metafield, MetafieldOption } from '../db/collections.js';

/** Shared by the metadata validator and the metadata serializers so both agree on shapes. */

export type MetadataMode = 'create' | 'patch';

/**
 * What counts as "no value" for `required`: the empty string and null for every type, and an
 * empty array for the array-valued types, where [] carries no selection either.
 */
export function isEmptyValue(mf: Metafield, value: unknown): boolean {
  if (value === '' || value === null || value === undefined) return true;
  if (Array.isArray(value) && (mf.type === 'check-boxes' || mf.type === 'objects' || mf.type === 'repeater')) {
    return value.length === 0;
  }
  return false;
}

export function optionList(mf: Metafield): MetafieldOption[] {
  return Array.isArray(mf.options) ? mf.options.filter((o) => typeof o.value === 'string') : [];
}

/** A select-dropdown option is addressed by its key; options written without one use their value. */
export function optionKey(option: MetafieldOption): string {
  return typeof option.key === 'string' ? option.key : option.value;
}

/** Keys win over values so that an option whose value equals another option's key stays reachable. */
export function findSelectOption(mf: Metafield, input: string): MetafieldOption | undefined {
  const options = optionList(mf);
  return options.find((o) => optionKey(o) === input) ?? options.find((o) => o.value === input);
}

export function nestedMetafields(mf: Metafield): Metafield[] {
  if (mf.type === 'parent') return mf.children ?? [];
  if (mf.type === 'repeater') return mf.repeater_fields ?? [];
  return [];
}

export function joinPath(prefix: string, key: string): string {
  return prefix === '' ? key : `${prefix}.${key}`;
}

/** Own properties only, so keys such as "constructor" never resolve to inherited members. */
export function ownValue(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
