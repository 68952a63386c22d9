import { fromBodyParser } from './body-parser-errors.js';
import {
  FileStoreError,
  InvalidUploadError,
  RangeNotSatisfiableError,
  SlugTakenError,
  UploadTooLargeError,
} from './domain-errors.js';
import { ReadLimitError } from './domain-limits.js';
import { BadRequestError, HttpError, PayloadTooLargeError } from './http-errors.js';
import { classifyDriverError, type DriverFailure } from './mongo-errors.js';

/** How long a client is asked to wait before retrying while the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

const INTERNAL_MESSAGE = 'An internal error occurred. Please try again, and contact support if the problem persists.';

function fromDomain(err: unknown): HttpError | null {
  if (err instanceof UploadTooLargeError) return new PayloadTooLargeError(err.message);
  if (err instanceof SlugTakenError) return new BadRequestError(err.message, 'slug_taken');
  if (err instanceof InvalidUploadError) return new BadRequestError(err.message, 'invalid_body');
  if (err instanceof ReadLimitError) return new PayloadTooLargeError(err.message, 'response_too_large');
  if (err instanceof RangeNotSatisfiableError) {
    return new HttpError(416, err.message, 'range_not_satisfiable', {
      headers: { 'Content-Range': `bytes */${err.size}` },
    });
  }
  // What failed underneath the file store (often the database) decides the answer.
  if (err instanceof FileStoreError) return translateError(err.cause);
  return null;
}

/** The 503 every route answers while the database cannot be reached, /v3/status included. */
export function databaseUnreachable(): HttpError {
  return new HttpError(
    503,
    `The database is unreachable; retry in ${RETRY_AFTER_SECONDS} seconds`,
    'service_unavailable',
    {
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    },
  );
}

function fromDriverFailure(failure: DriverFailure): HttpError {
  switch (failure.kind) {
    case 'unreachable':
      return databaseUnreachable();
    case 'timeout':
      return new HttpError(
        503,
        'The query took longer than the time limit; narrow it (a more selective query, fewer props, a lower limit or depth)',
        'query_timeout',
      );
    case 'too_large':
      return new PayloadTooLargeError('The document would be larger than the 16 MB a database document can hold');
    case 'invalid_value':
      return new BadRequestError(
        `The database cannot store a value of this request${failure.detail === null ? '' : `: ${failure.detail}`}`,
      );
    case 'duplicate_key': {
      const what = failure.fields.length > 0 ? `the same ${failure.fields.join(', ')}` : 'the same unique key';
      return new HttpError(409, `A document with ${what} already exists`, 'conflict');
    }
  }
}

/** Express's router raises a URIError (status 400) when a path parameter is not valid percent-encoding. */
function fromPathDecoding(err: unknown): HttpError | null {
  if (!(err instanceof URIError)) return null;
  return new BadRequestError(`Malformed percent-encoding in the path (${err.message})`);
}

/** Errors built with the http-errors package mark client-safe messages with `expose`. */
function fromExposedClientError(err: unknown): HttpError | null {
  if (!(err instanceof Error)) return null;
  const { status, expose } = err as { status?: unknown; expose?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 499 || expose !== true) return null;
  return new HttpError(status, err.message);
}

/**
 * The one translation of anything thrown into the error a client sees: HTTP errors as they are,
 * domain, driver and body-parser errors by their meaning, and everything else as a 500 whose
 * message discloses nothing. The error handler and the batch runner both answer with this.
 */
export function translateError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  const driverFailure = classifyDriverError(err);
  if (driverFailure) return fromDriverFailure(driverFailure);
  return (
    fromDomain(err) ??
    fromBodyParser(err) ??
    fromPathDecoding(err) ??
    fromExposedClientError(err) ??
    new HttpError(500, INTERNAL_MESSAGE, 'internal_error')
  );
}

/** What the server log gets for an error: its stack when it has one, and what caused it. */
export function errorDetail(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const own = err.stack ?? err.message;
  return err.cause === undefined ? own : `${own}\ncaused by: ${errorDetail(err.cause)}`;
}
