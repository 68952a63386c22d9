import express, { type RequestHandler } from 'express';
import { BadRequestError, UnsupportedMediaTypeError } from '../errors/http-errors.js';
import { findNulKey } from '../validation/nul-keys.js';

/** The JSON escape of NUL, the only way one can appear in a valid JSON text. */
const ESCAPED_NUL = Buffer.from('\\u0000');
const mayHoldNulKey = new WeakSet();

/**
 * JSON bodies for write routes. A body in another content type is refused with 415 rather
 * than silently ignored; an absent body becomes {} so validators report missing fields. A key
 * holding NUL is refused here, before any validator or the database sees it.
 */
export function jsonBody(limit: string): RequestHandler {
  // Typed as an Express handler because that is how it runs: body-parser's own types name
  // connect's IncomingMessage class, which an Express request is not an instance of.
  const parse: RequestHandler = express.json({
    limit,
    strict: false,
    type: () => true,
    // The raw bytes are checked once for an escaped NUL, so the common body is never walked.
    verify: (req, _res, buf) => {
      if (buf.includes(ESCAPED_NUL)) mayHoldNulKey.add(req);
    },
  });
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
    parse(req, res, (err?: unknown) => {
      if (err === undefined || err === null) {
        const nul = mayHoldNulKey.has(req) ? findNulKey(req.body, 'body') : null;
        if (nul) {
          next(
            new BadRequestError(
              `Invalid request body: ${nul.at}: key ${JSON.stringify(nul.key)} contains a NUL character, which keys may not hold`,
              'invalid_body',
            ),
          );
          return;
        }
      }
      next(err);
    });
  };
}
