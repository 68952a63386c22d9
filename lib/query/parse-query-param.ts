import { BadRequestError } from '../errors/http-errors.js';
import { MAX_QUERY_LENGTH } from './limits.js';

/**
 * The `query` parameter (already URL-decoded) as a JSON object. Absent or empty means no filter,
 * because some clients always append `query=`.
 */
export function parseQueryParam(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined || raw.trim() === '') return {};
  if (raw.length > MAX_QUERY_LENGTH) {
    throw new BadRequestError(`Malformed query: longer than ${MAX_QUERY_LENGTH} characters`, 'invalid_query');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    const detail = err instanceof SyntaxError ? err.message : 'not valid JSON';
    throw new BadRequestError(`Malformed query: not valid JSON (${detail})`, 'invalid_query');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new BadRequestError(`Malformed query: must be a JSON object, got ${describeJson(parsed)}`, 'invalid_query');
  }
  return parsed as Record<string, unknown>;
}

export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
