import express, { type RequestHandler } from 'express';
import { UnsupportedMediaTypeError, ValidationErrors } from '../errors/http-errors.js';
import { addBoundsReport, jsonBoundsProblems } from '../validation/json-bounds.js';
import { MAX_BODY_DEPTH, MAX_OBJECT_KEYS } from '../validation/limits.js';

/**
 * Nesting, key counts and NUL-free keys of a parsed body, checked before any validator or
 * service walks it: those walk recursively, and so do the driver and the engine a deep value
 * would reach; and no BSON document can hold a key with NUL.
 */
export function assertBodyBounds(body: unknown): void {
  const errors = new ValidationErrors();
  addBoundsReport(
    errors,
    jsonBoundsProblems(body, 'body', { maxDepth: MAX_BODY_DEPTH, maxKeys: MAX_OBJECT_KEYS, storableKeys: false }),
  );
  errors.throwIfAny('Invalid request body', 'invalid_body');
}

/**
 * JSON bodies for write routes. A body in another content type is refused with 415 rather
 * than silently ignored; an absent body becomes {} so validators report missing fields.
 * `limit` is in bytes or a size such as "5mb".
 */
export function jsonBody(limit: string | number): RequestHandler {
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
    parse(req, res, (err?: unknown) => {
      if (err !== undefined && err !== null) {
        next(err);
        return;
      }
      try {
        assertBodyBounds(req.body);
      } catch (problem) {
        next(problem);
        return;
      }
      next();
    });
  };
}
