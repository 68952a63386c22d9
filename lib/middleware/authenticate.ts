import type { Request, RequestHandler } from 'express';
import { UnauthorizedError, HttpError } from '../errors/http-errors.js';
import { admitMember } from './admit-member.js';
import { markPrivate } from '../http/cache-control.js';
import { keyMatches, bearerKey } from '../http/request.js';
import { bucketOf } from '../http/request.js';
import { paramOf } from '../http/request.js';
import { setAccount, setAccountError } from '../accounts/request-account.js';
import { looksLikeJwt, type AccountTokens } from '../accounts/request-account.js';

/** Legacy clients repeat the write key in the body or upload form as `write_key`. */
function bodyWriteKey(req: Request): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  return body && typeof body.write_key === 'string' ? body.write_key : undefined;
}

/**
 * Read routes: the read key in `read_key`, or the write key (which grants reads too). A repeated
 * `read_key` never gets here: the route's parameters are read first and answer it with a 400.
 */
export const requireRead: RequestHandler = (req, res, next) => {
  const bucket = bucketOf(res);
  // Read before the keyless shortcut, so a route that forgot to declare read_key fails on every Bucket.
  const presented = paramOf(res, 'read_key');
  if (bucket.read_key_hash === null) {
    next();
    return;
  }
  markPrivate(res);
  const bearer = bearerKey(req);
  if (
    keyMatches(presented, bucket.read_key_hash) ||
    keyMatches(presented, bucket.write_key_hash) ||
    keyMatches(bearer, bucket.write_key_hash) ||
    admitMember(res, false)
  ) {
    next();
    return;
  }
  throw new UnauthorizedError(
    presented === undefined && bearer === undefined
      ? `The bucket '${bucket.slug}' requires the correct read access key: pass read_key`
      : `The bucket '${bucket.slug}' requires the correct read access key: the key given is not valid for this bucket`,
  );
};

/**
 * Write routes: the write key in the Authorization header (or `write_key` in the body/form). A
 * body reader that checked a header key before reading (write-body.ts) is not checked twice:
 * what was admitted is kept per Bucket document, so a Bucket read afresh (a retried write) is
 * checked again.
 */
export const requireWrite: RequestHandler = (req, res, next) => {
  const bucket = bucketOf(res);
  if (bucket.write_key_hash === null || res.locals.writeAdmitted === bucket) {
    next();
    return;
  }
  const presented = bearerKey(req) ?? bodyWriteKey(req);
  // The legacy clients send an account token in the header and the write key in the body.
  if (
    keyMatches(presented, bucket.write_key_hash) ||
    keyMatches(bodyWriteKey(req), bucket.write_key_hash) ||
    admitMember(res, true)
  ) {
    res.locals.writeAdmitted = bucket;
    next();
    return;
  }
  throw new UnauthorizedError(
    presented === undefined
      ? `The bucket '${bucket.slug}' requires the correct write access key: send Authorization: Bearer <write key>`
      : `The bucket '${bucket.slug}' requires the correct write access key: the key given is not valid for this bucket`,
  );
};

/**
 * Reads an account access token from Authorization (with or without `Bearer `, as the legacy
 * clients send it) on every request. A refused token is only noted: a Bucket route may still be
 * open, and an account route or a key check reports the refusal when it needs the account.
 */
export function accountToken(tokens: AccountTokens): RequestHandler {
  return async (req, res, next) => {
    const presented = bearerKey(req);
    if (presented !== undefined && looksLikeJwt(presented)) {
      try {
        setAccount(res, await tokens.verify(presented));
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        setAccountError(res, err);
      }
    }
    next();
  };
}
