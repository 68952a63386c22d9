import type { ErrorCodeFor } from './codes.js';
import { HttpError } from './http-errors.js';

/** A refusal that will not last: it carries Retry-After, so clients back off instead of failing. */
export function retryLater(
  status: 429 | 503,
  message: string,
  code: ErrorCodeFor<429 | 503>,
  retryAfterSeconds: number,
): HttpError {
  return new HttpError(status, message, code, { headers: { 'Retry-After': String(retryAfterSeconds) } });
}
