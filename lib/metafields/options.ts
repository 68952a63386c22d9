import type { Metafield, MetafieldOption } from '../types/metafield.js';

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

/** Every option key and then every option value, the spellings a select-dropdown accepts. */
export function selectSpellings(mf: Metafield): string[] {
  const options = optionList(mf);
  return [...options.map(optionKey), ...options.map((o) => o.value)];
}

export function optionValues(mf: Metafield): string[] {
  return optionList(mf).map((o) => o.value);
}

export function quoteList(values: string[]): string {
  return [...new Set(values)].map((v) => JSON.stringify(v)).join(', ');
}

/** A JSON Schema enum of the values; Ajv refuses an empty enum, and no options means no acceptable value. */
export function enumOf(values: string[]): Record<string, unknown> {
  return values.length > 0 ? { enum: [...new Set(values)] } : { not: {} };
}

/**
 * The stored keys whose answered `value` is `value`: the options with that value, and `value`
 * itself when no option has it as key, since such a stored key answers itself as value.
 */
export function keysAnsweringValue<V>(mf: Metafield, value: V): (V | string)[] {
  const options = optionList(mf);
  const keys: (V | string)[] = options.filter((o) => o.value === value).map(optionKey);
  if (!options.some((o) => optionKey(o) === value)) keys.push(value);
  return keys;
}
