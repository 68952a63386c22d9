import type { ErrorRequestHandler } from 'express';
import { errorBody } from '../errors/http-errors.js';
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
    if (failure.status >= 500) log(`${failure.status} on ${req.method} ${req.originalUrl}: ${errorDetail(err)}`);
    res.set(failure.headers);
    sendJson(res, failure.status, errorBody(failure));
  };
}
