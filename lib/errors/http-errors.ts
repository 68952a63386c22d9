import type { ErrorCode, ErrorCodeFor } from './codes.js';

/** The version in place, named by a 412 `version_conflict` so a client can show what it missed. */
export interface CurrentVersion {
  version: string;
  modified_at: string;
  modified_by: string | null;
}

export interface HttpErrorOptions {
  documentation?: string;
  current?: CurrentVersion;
  /** Response headers that belong to the error, such as Retry-After on a 503. */
  headers?: Readonly<Record<string, string>>;
}

/** An error that already knows its HTTP status, its stable code and the message a client may read. */
export class HttpError extends Error {
  readonly documentation: string | undefined;
  readonly current: CurrentVersion | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly status: number,
    message: string,
    readonly code: ErrorCode = defaultCode(status),
    options: HttpErrorOptions = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.documentation = options.documentation;
    this.current = options.current;
    this.headers = options.headers ?? {};
  }
}

function defaultCode(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 416:
      return 'range_not_satisfiable';
    case 503:
      return 'service_unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'bad_request';
  }
}

export class BadRequestError extends HttpError {
  /**
   * @param problems when the message lists problems (`prefix: p1; p2`), the list alone, so a batch
   *   can name the operation they belong to in place of the request-level prefix.
   */
  constructor(
    message: string,
    code: ErrorCodeFor<400> = 'bad_request',
    readonly problems: readonly string[] | null = null,
  ) {
    super(400, message, code);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message: string) {
    super(401, message, 'unauthorized');
  }
}

/** Built by the factories in not-found.ts, which keep one wording for every resource. */
export class NotFoundError extends HttpError {
  constructor(message: string, code: ErrorCodeFor<404> = 'not_found') {
    super(404, message, code);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(message: string, code: ErrorCodeFor<413> = 'payload_too_large') {
    super(413, message, code);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message: string) {
    super(415, message, 'unsupported_media_type');
  }
}

/** Problems listed in one 400; beyond this the message would only grow, not help. */
export const MAX_REPORTED_PROBLEMS = 50;

/**
 * Collects every problem of one request so they are reported together in one 400. Only the
 * first MAX_REPORTED_PROBLEMS are kept and worded; the rest are counted ("and N more problems"),
 * so a body with thousands of mistakes costs neither memory nor a huge error body.
 */
export class ValidationErrors {
  private readonly problems: string[] = [];
  private unlisted = 0;

  add(problem: string): void {
    if (this.problems.length < MAX_REPORTED_PROBLEMS) this.problems.push(problem);
    else this.unlisted++;
  }

  /** Problems a check counted without wording them, because the list was already full. */
  addUnlisted(count: number): void {
    this.unlisted += count;
  }

  get count(): number {
    return this.problems.length + this.unlisted;
  }

  throwIfAny(prefix = 'Invalid request', code: ErrorCodeFor<400> = 'bad_request'): void {
    if (this.count === 0) return;
    const listed =
      this.unlisted > 0
        ? [...this.problems, `and ${this.unlisted} more problem${this.unlisted === 1 ? '' : 's'}`]
        : this.problems;
    throw new BadRequestError(`${prefix}: ${listed.join('; ')}`, code, listed);
  }
}

/** The body every error response carries (schemas/Error.json). */
export interface ErrorBody {
  status: number;
  code: ErrorCode;
  message: string;
  documentation?: string;
  current?: CurrentVersion;
}

export function errorBody(err: HttpError): ErrorBody {
  const body: ErrorBody = { status: err.status, code: err.code, message: err.message };
  if (err.documentation !== undefined) body.documentation = err.documentation;
  if (err.current !== undefined) body.current = err.current;
  return body;
}
