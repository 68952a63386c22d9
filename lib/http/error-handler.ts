import type { ErrorRequestHandler } from 'express';
import { errorBody, HttpError } from '../errors/http-errors.js';
import { errorDetail, translateError } from '../errors/translate.js';
import { redactUrl } from '../util/redact.js';
import { sendJson } from './respond.js';

/** The only place that turns errors into bodies; what a body says comes from the translator. */
export function errorHandler(log: (msg: string) => void): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const failure = translateError(err);
    // An HttpError thrown on purpose (a full image queue) is an answer, not a fault worth a log line.
    if (failure.status >= 500 && !(err instanceof HttpError)) {
      // The request id ties this line to the request's own log line; the URL loses its keys.
      const id = res.getHeader('X-Request-Id');
      const request = id === undefined ? '' : ` [request ${String(id)}]`;
      log(`${failure.status} on ${req.method} ${redactUrl(req.originalUrl)}: ${errorDetail(err)}${request}`);
    }
    res.set(failure.headers);
    sendJson(res, failure.status, errorBody(failure));
  };
}
