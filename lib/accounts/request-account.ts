import type { Response } from 'express';
import { HttpError, UnauthorizedError } from '../errors/http-errors.js';
import type { AccountDoc, MemberDoc } from './store.js';

/**
 * What the account token of a request established (lib/middleware/account-token.ts): the
 * account, or why the token was refused, and, on Bucket routes, the account's membership.
 */
interface AccountLocals {
  account?: AccountDoc;
  accountError?: HttpError;
  member?: MemberDoc | null;
  /** Set once a request was let in through its membership rather than a Bucket key. */
  viaMember?: boolean;
}

const locals = (res: Response): AccountLocals => res.locals as AccountLocals;

export function setAccount(res: Response, account: AccountDoc): void {
  locals(res).account = account;
}

export function setAccountError(res: Response, err: HttpError): void {
  locals(res).accountError = err;
}

export function accountOf(res: Response): AccountDoc | undefined {
  return locals(res).account;
}

/** The refusal a token got, if one was presented and refused. */
export function accountErrorOf(res: Response): HttpError | undefined {
  return locals(res).accountError;
}

/** The account of a valid token, or 401 (account routes). */
export function requireAccountOf(res: Response): AccountDoc {
  const { account, accountError } = locals(res);
  if (account) return account;
  throw (
    accountError ??
    new UnauthorizedError('This route needs an account access token: send Authorization: Bearer <token>')
  );
}

export function setMember(res: Response, member: MemberDoc | null): void {
  locals(res).member = member;
}

export function memberOf(res: Response): MemberDoc | null | undefined {
  return locals(res).member;
}

export function markViaMember(res: Response): void {
  locals(res).viaMember = true;
}

export function viaMember(res: Response): boolean {
  return locals(res).viaMember === true;
}

export function forbidden(bucketSlug: string, why: string): HttpError {
  return new HttpError(403, `Not allowed on bucket '${bucketSlug}': ${why}`, 'forbidden');
}
