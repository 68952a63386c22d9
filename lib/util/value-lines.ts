/*
 * A stored value (JSON, a list, a relationship, a group of fields) as short lines of text, so
 * two versions of it compare line by line the way a person reads them, not as two JSON dumps.
 */

const MAX_DEPTH = 8;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What names a value a person picked: an option's label, a related Object's title, a file's name. */
function nameOf(value: Record<string, unknown>): string | null {
  for (const key of ['title', 'value', 'name', 'original_name']) {
    const named = value[key];
    if (typeof named === 'string' && named !== '') return named;
  }
  return null;
}

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * One line per leaf, each `path: value` (paths joined by `.`, list items numbered from 1), and
 * a named value (see nameOf) as its name alone. Empty values give no lines. Deeper than
 * MAX_DEPTH, the rest is one line of JSON.
 */
export function valueLines(value: unknown, path = '', depth = 0): string[] {
  const at = (line: string) => (path === '' ? line : `${path}: ${line}`);
  if (value === undefined || value === null || value === '') return [];
  if (!isRecord(value) && !Array.isArray(value)) return [at(scalar(value))];
  if (depth >= MAX_DEPTH) return [at(JSON.stringify(value))];
  if (Array.isArray(value)) {
    // Lists of plain values read as lists; lists of groups get numbered paths.
    if (value.every((v) => !isRecord(v) && !Array.isArray(v) && v !== null && v !== undefined))
      return value.map((v) => at(scalar(v)));
    return value.flatMap((v, i) => valueLines(v, path === '' ? `${i + 1}` : `${path}.${i + 1}`, depth + 1));
  }
  const named = nameOf(value);
  if (named !== null) return [at(named)];
  return Object.entries(value).flatMap(([k, v]) => valueLines(v, path === '' ? k : `${path}.${k}`, depth + 1));
}
