import express, { type RequestHandler } from 'express';
import { UnsupportedMediaTypeError } from '../errors/http-errors.js';

/**
 * JSON bodies for write routes. A body in another content type is refused with 415 rather
 * than silently ignored; an absent body becomes {} so validators report missing fields.
 */
export function jsonBody(limit: string): RequestHandler {
  // Typed as an Express handler because that is how it runs: body-parser's own types name
  // connect's IncomingMessage class, which an Express request is not an instance of.
  const parse: RequestHandler = express.json({ limit, strict: false, type: () => true });
  return (req, res, next) => {
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (!hasBody) {
      req.body = {};
      next();
      return;
    }
    if (!req.is('application/json') && !req.is('application/*+json')) {
      throw new UnsupportedMediaTypeError(
        `Content-Type must be application/json, got "${req.get('content-type') ?? 'none'}"`,
      );
    }
    parse(req, res, next);
  };
}
