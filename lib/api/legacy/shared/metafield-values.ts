import { ValidationErrors } from '../../../errors/http-errors.js';
import { quote } from '../../../util/quote.js';
import { isPlainObject } from '../../../util/values.js';

/**
 * The v3 `metadata` a legacy `metafields` array means. The older APIs write an Object's content
 * as its Metafields, each carrying its value (`[{key, type, title, value}]`); only `key` and
 * `value` are content, the rest belongs to the Object type. A parent carries no value: its
 * `children` are its keys; a repeater's `children` are its items, each with its own `children`.
 * Every problem is reported together, each with the entry's path.
 */
export function metadataOfMetafields(list: unknown, path: string): Record<string, unknown> {
  const problems = new ValidationErrors();
  const metadata = level(list, path, problems);
  problems.throwIfAny('Invalid request body', 'invalid_body');
  return metadata;
}

function level(list: unknown, path: string, problems: ValidationErrors): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!Array.isArray(list)) {
    problems.add(`${path} must be an array of Metafields, each with a key and a value`);
    return out;
  }
  list.forEach((entry: unknown, i) => {
    const at = `${path}[${String(i)}]`;
    if (!isPlainObject(entry) || typeof entry.key !== 'string' || entry.key === '') {
      problems.add(`${at} must be an object with a non-empty string key`);
      return;
    }
    if (Object.hasOwn(out, entry.key)) problems.add(`${at}: key ${quote(entry.key)} is given twice`);
    out[entry.key] = valueOf(entry, at, problems);
  });
  return out;
}

function valueOf(entry: Record<string, unknown>, at: string, problems: ValidationErrors): unknown {
  if (Object.hasOwn(entry, 'value')) return entry.value;
  const { children } = entry;
  if (entry.type === 'repeater' && Array.isArray(children)) {
    return children.map((item: unknown, j) =>
      level(isPlainObject(item) ? item.children : undefined, `${at}.children[${String(j)}].children`, problems),
    );
  }
  if (Array.isArray(children)) return level(children, `${at}.children`, problems);
  problems.add(`${at} must have a value (or children, for a parent or repeater)`);
  return undefined;
}
