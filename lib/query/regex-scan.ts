import type { Document } from 'mongodb';

/**
 * What a `$regex` condition makes the engine read. The embedded engine runs `$regex` with a
 * backtracking matcher and ignores `maxTimeMS`, so the service bounds the text a request's regex
 * may scan itself: these find the conditions in a translated filter and the superset of the
 * documents the engine may test them on.
 */

function holdsRegex(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsRegex);
  if (value === null || typeof value !== 'object' || value instanceof Date) return false;
  return Object.entries(value as Document).some(([key, inner]) => key === '$regex' || holdsRegex(inner));
}

/** Whether the stored field `path` is tested with `$regex` anywhere in `filter` (in `$or`, `$not`… too). */
export function regexOn(filter: Document, path: string): boolean {
  for (const [key, value] of Object.entries(filter)) {
    if (key === path && holdsRegex(value)) return true;
    if (Array.isArray(value) && value.some((f) => f !== null && typeof f === 'object' && regexOn(f as Document, path)))
      return true;
    if (key === '$not' || key === '$nor') {
      if (value !== null && typeof value === 'object' && regexOn(value as Document, path)) return true;
    }
  }
  return false;
}

/**
 * `filter` with every condition that holds a `$regex` left out: the documents it matches include
 * every document the engine tests a regex on. Only whole conditions of the top level (and of a
 * top-level `$and`) are left out, so what remains narrows as the filter did.
 */
export function withoutRegex(filter: Document): Document {
  const out: Document = {};
  for (const [key, value] of Object.entries(filter) as [string, unknown][]) {
    if (key === '$and' && Array.isArray(value)) {
      const kept = (value as unknown[]).filter((f) => !holdsRegex(f)).map((f) => withoutRegex(f as Document));
      if (kept.length > 0) out.$and = kept;
    } else if (!holdsRegex(value)) {
      out[key] = value;
    }
  }
  return out;
}
