import type { ErrorRequestHandler } from 'express';
import { errorBody, HttpError } from '../errors/http-errors.js';
import { errorDetail, translateError } from '../errors/translate.js';
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
    if (failure.status >= 500 && !(err instanceof HttpError))
      log(`${failure.status} on ${req.method} ${req.originalUrl}: ${errorDetail(err)}`);
    res.set(failure.headers);
    sendJson(res, failure.status, errorBody(failure));
  };
}
