import type { RequestHandler, Response } from 'express';
import { UnauthorizedError } from '../errors/http-errors.js';
import { MAX_UNAUTHENTICATED_BODY_BYTES } from '../validation/limits.js';
import { bearerKey, requireWrite } from './authenticate.js';
import { jsonBody } from './json-body.js';
import { bucketOf } from './load-bucket.js';

const noop = () => undefined;

function anonymousTooLarge(res: Response): UnauthorizedError {
  // The rest of the body is not worth reading: the connection closes after the answer.
  res.set('Connection', 'close');
  return new UnauthorizedError(
    `The bucket '${bucketOf(res).slug}' requires the correct write access key: send Authorization: Bearer <write key> ` +
      `(a body over ${MAX_UNAUTHENTICATED_BODY_BYTES} bytes without it is not read)`,
  );
}

/**
 * The JSON body of a write route, read only once it is worth reading, so that anonymous or
 * wrongly keyed requests cannot make the process parse megabytes for nothing:
 * - an Authorization header is checked first, and a wrong key gets 401 before the body is read;
 * - without a header, a keyed Bucket can only be written with the legacy `write_key` body field,
 *   so the body must be read to know; it is read only up to MAX_UNAUTHENTICATED_BODY_BYTES (larger
 *   ones get 401, before reading when Content-Length says so) and the key is checked at once;
 * - a Bucket without a write key takes bodies up to `limit` from anyone, as it takes writes.
 * The route's own requireWrite still runs after this; it then finds the request authorized.
 */
export function writeBody(limit: string): RequestHandler {
  const full = jsonBody(limit);
  const small = jsonBody(MAX_UNAUTHENTICATED_BODY_BYTES);
  return (req, res, next) => {
    if (bucketOf(res).write_key_hash === null) {
      full(req, res, next);
      return;
    }
    if (bearerKey(req) !== undefined) {
      requireWrite(req, res, noop);
      full(req, res, next);
      return;
    }
    const declared = Number(req.get('content-length'));
    if (Number.isFinite(declared) && declared > MAX_UNAUTHENTICATED_BODY_BYTES) throw anonymousTooLarge(res);
    small(req, res, (err?: unknown) => {
      if ((err as { type?: unknown } | undefined)?.type === 'entity.too.large') {
        next(anonymousTooLarge(res));
        return;
      }
      if (err !== undefined && err !== null) {
        next(err);
        return;
      }
      try {
        requireWrite(req, res, noop);
      } catch (refused) {
        next(refused);
        return;
      }
      next();
    });
  };
}
