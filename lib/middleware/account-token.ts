import type { RequestHandler } from 'express';
import { HttpError } from '../errors/http-errors.js';
import { setAccount, setAccountError } from '../accounts/request-account.js';
import { looksLikeJwt, type AccountTokens } from '../accounts/tokens.js';
import { bearerKey } from '../http/bearer-key.js';

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
