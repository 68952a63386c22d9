import type { ErrorRequestHandler } from 'express';
import { HttpError } from '../errors/http-errors.js';
import { RetryLaterError } from '../errors/retry-later.js';
import { sendJson } from './respond.js';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
  charset?: string;
  encoding?: string;
}

/** Errors raised by express.json() before any route runs, mapped to the spec's error body. */
function fromBodyParser(err: BodyParserError): HttpError | null {
  switch (err.type) {
    case 'entity.parse.failed':
      return new HttpError(400, `Malformed JSON body: ${err.message}`);
    case 'entity.too.large':
      return new HttpError(413, `Request body is larger than the ${err.limit} byte limit`);
    case 'encoding.unsupported':
      return new HttpError(415, `Unsupported content encoding "${err.encoding}"`);
    case 'charset.unsupported':
      return new HttpError(415, `Unsupported charset "${err.charset}"`);
    case 'request.aborted':
      return new HttpError(400, 'Request aborted by the client before the body was complete');
    case 'entity.verify.failed':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new HttpError(400, `Invalid request body: ${err.message}`);
    default:
      return null;
  }
}

/** The only place that turns errors into bodies. Unknown errors leak nothing of their text. */
export function errorHandler(log: (msg: string) => void): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const known = err instanceof HttpError ? err : fromBodyParser(err as BodyParserError);
    if (known) {
      if (known instanceof RetryLaterError) res.set('Retry-After', String(known.retryAfterSeconds));
      const body: Record<string, unknown> = { status: known.status, code: known.code, message: known.message };
      if (known.documentation) body.documentation = known.documentation;
      sendJson(req, res, known.status, body);
      return;
    }
    log(`500 on ${req.method} ${req.originalUrl}: ${err instanceof Error ? err.stack : String(err)}`);
    sendJson(req, res, 500, {
      status: 500,
      code: 'internal_error',
      message: 'An internal error occurred. Please try again, and contact support if the problem persists.',
    });
  };
}
