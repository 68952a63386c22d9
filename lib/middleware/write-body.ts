import type { RequestHandler, Response } from 'express';
import { UnauthorizedError } from '../errors/http-errors.js';
import { closeAfterResponse } from '../http/close-after-response.js';
import { admitBodyKey } from '../limits/rate-limits.js';
import { MAX_UNAUTHENTICATED_BODY_BYTES } from '../validation/limits.js';
import { requireWrite } from './authenticate.js';
import { bearerKey } from '../http/request.js';
import { jsonBody } from '../http/json-body.js';
import { bucketOf } from '../http/request.js';

const noop = () => undefined;

function anonymousTooLarge(res: Response): UnauthorizedError {
  closeAfterResponse(res);
  return new UnauthorizedError(
    `The bucket '${bucketOf(res).slug}' requires the correct write access key: send Authorization: Bearer <write key> ` +
      `(without it, a body is read only when its Content-Length is at most ${MAX_UNAUTHENTICATED_BODY_BYTES} bytes)`,
  );
}

/**
 * The JSON body of a write route, read only once it is worth reading, so that anonymous or
 * wrongly keyed requests cannot make the process read and parse megabytes for nothing:
 * - an Authorization header is checked first, and a wrong key gets 401 before the body is read;
 * - without a header, a keyed Bucket can only be written with the legacy `write_key` body field,
 *   so the body must be read to know. It is read only when its Content-Length is at most
 *   MAX_UNAUTHENTICATED_BODY_BYTES; a larger or streamed (chunked) one gets 401 unread, since
 *   body-parser would otherwise drain a streamed body to its end before refusing it;
 * - a Bucket without a write key takes bodies up to `limit` from anyone, as it takes writes.
 * The route's own requireWrite still runs after this; it then finds the request authorized.
 * A write key found only in the body spends its budget once the body is read (admitBodyKey).
 */
export function writeBody(limit: string): RequestHandler {
  const full = jsonBody(limit);
  const small = jsonBody(MAX_UNAUTHENTICATED_BODY_BYTES);
  return (req, res, next) => {
    const parsed = (err?: unknown) => {
      if (err !== undefined && err !== null) {
        next(err);
        return;
      }
      admitBodyKey(req, res).then(() => {
        next();
      }, next);
    };
    if (bucketOf(res).write_key_hash === null) {
      full(req, res, next);
      return;
    }
    if (bearerKey(req) !== undefined) {
      try {
        requireWrite(req, res, noop);
      } catch (refused) {
        closeAfterResponse(res);
        throw refused;
      }
      full(req, res, parsed);
      return;
    }
    const streamed = req.get('transfer-encoding') !== undefined;
    if (streamed || Number(req.get('content-length') ?? 0) > MAX_UNAUTHENTICATED_BODY_BYTES) {
      throw anonymousTooLarge(res);
    }
    small(req, res, (err?: unknown) => {
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
      parsed();
    });
  };
}
