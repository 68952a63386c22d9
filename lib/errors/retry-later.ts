import type { ErrorCode } from './codes.js';
import { HttpError } from './http-errors.js';

/** A refusal that will not last: the error handler adds Retry-After, so clients back off instead of failing. */
export class RetryLaterError extends HttpError {
  constructor(
    status: 429 | 503,
    message: string,
    code: ErrorCode,
    readonly retryAfterSeconds: number,
  ) {
    super(status, message, code);
  }
}
