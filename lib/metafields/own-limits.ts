import { isPlainObject } from '../util/values.js';

/**
 * Bounds on the Metafields an Object defines of its own (legacy writes, own.ts). A type's
 * definitions are stored once; an Object's own are stored on every version and every revision
 * of it, so their size is multiplied by its history. Checked before the definitions are
 * validated, so an oversized one costs a walk, not a schema run.
 */

/** Options of one select-dropdown, radio-buttons or check-boxes Metafield. */
export const MAX_OWN_OPTIONS = 500;
/** Characters of a title, key, help text, option or any other string of a definition but its default value. */
export const MAX_OWN_TEXT_CHARS = 1000;
/** Characters of a default `value` string. */
export const MAX_OWN_DEFAULT_CHARS = 10_000;
/** Bytes of all of an Object's own definitions together, as stored. */
export const MAX_OWN_DEFINITIONS_BYTES = 64 * 1024;

/** Problems of one sent definition's sizes, each naming its path under `at`. */
export function ownDefinitionSizeProblems(entry: unknown, at: string): string[] {
  const problems: string[] = [];
  const walk = (value: unknown, path: string, field: string | undefined): void => {
    if (typeof value === 'string') {
      const max = field === 'value' ? MAX_OWN_DEFAULT_CHARS : MAX_OWN_TEXT_CHARS;
      if (value.length > max) problems.push(`${path}: at most ${String(max)} characters, got ${String(value.length)}`);
      return;
    }
    if (Array.isArray(value)) {
      if (field === 'options' && value.length > MAX_OWN_OPTIONS) {
        problems.push(`${path}: at most ${String(MAX_OWN_OPTIONS)} options, got ${String(value.length)}`);
        return;
      }
      // Items of options are options; items of a default are the default; others are definitions.
      const items = field === 'options' ? 'option' : field === 'value' ? 'value' : undefined;
      value.forEach((item, i) => {
        walk(item, `${path}[${String(i)}]`, items);
      });
      return;
    }
    if (isPlainObject(value))
      for (const [key, inner] of Object.entries(value))
        walk(inner, `${path}.${key}`, field === 'value' || field === 'option' ? field : key);
  };
  walk(entry, at, undefined);
  return problems;
}

/** The problem of an Object's own definitions taking more than their share of every stored version, or null. */
export function ownDefinitionsBytesProblem(own: readonly unknown[], at: string): string | null {
  const bytes = Buffer.byteLength(JSON.stringify(own));
  if (bytes <= MAX_OWN_DEFINITIONS_BYTES) return null;
  return (
    `${at}: the Object's own Metafield definitions would take ${String(bytes)} bytes, at most ` +
    `${String(MAX_OWN_DEFINITIONS_BYTES)} (they are stored with every version and revision; define large ` +
    'select options or defaults on the Object type instead)'
  );
}
