// The account behind a request: its token, the account it verifies to, and the actor writes record.
import type { Response } from 'express';
import { HttpError, UnauthorizedError } from '../errors/http-errors.js';
import { findAccountById, type AccountDoc, type MemberDoc } from './store.js';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { ObjectId, type Db } from 'mongodb';
import type { Config } from '../config.js';
import { PreviewSecret } from '../preview/preview-tokens.js';
import { laterOf, type WriteRequest } from '../http/respond.js';

/**
 * What the account token of a request established (lib/middleware/authenticate.ts): the
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

/**
 * The account a write is made for: the member's, once the member checks let the request in
 * (lib/middleware/member-access.ts); null for a write made with a Bucket key.
 */
export function actorOf(res: Response): string | null {
  const { account, member } = locals(res);
  return viaMember(res) && member && account ? account._id.toHexString() : null;
}

/**
 * What the writes of the request of `res` are told of it (lib/http/respond.ts WriteRequest). Only
 * in a Bucket route's handler, after the scope of put-off work (lib/registry/mount.ts) ran.
 */
export function writeRequestOf(res: Response): WriteRequest {
  const later = laterOf(res);
  if (later === undefined) throw new Error('A write was made for a request outside the scope of its put-off work');
  return { actor: actorOf(res), later };
}

const ISSUER = 'content-api';
const AUDIENCE = 'account';

export interface IssuedAccountToken {
  token: string;
  expires_at: string;
}

/** Signs and checks account access tokens: HS256, the secret from ACCOUNT_TOKEN_SECRET or the database. */
export class AccountTokens {
  private readonly secret: PreviewSecret;

  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'accountTokenSecret' | 'accountTokenTtlSeconds'>,
  ) {
    this.secret = new PreviewSecret(db, config.accountTokenSecret, 'account_token_secret');
  }

  async issue(account: AccountDoc, now = new Date()): Promise<IssuedAccountToken> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + this.config.accountTokenTtlSeconds;
    const token = await new SignJWT({ pv: account.password_version })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(account._id.toHexString())
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(await this.secret.get());
    return { token, expires_at: new Date(exp * 1000).toISOString() };
  }

  /** The account a token stands for; 401 when it is tampered with, expired, or older than a password change. */
  async verify(token: string, now = new Date()): Promise<AccountDoc> {
    let subject: string | undefined;
    let version: unknown;
    try {
      const { payload } = await jwtVerify(token, await this.secret.get(), {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: now,
      });
      subject = payload.sub;
      version = payload.pv;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) {
        throw new UnauthorizedError(
          err instanceof joseErrors.JWTExpired
            ? 'The access token has expired: authenticate again'
            : 'The access token is not valid: authenticate again',
        );
      }
      throw err;
    }
    const account = subject && ObjectId.isValid(subject) ? await findAccountById(this.db, new ObjectId(subject)) : null;
    if (!account) throw new UnauthorizedError('The access token is not valid: its account no longer exists');
    if (account.password_version !== version) {
      throw new UnauthorizedError('The access token was issued before the password changed: authenticate again');
    }
    return account;
  }
}

/** Tokens are three base64url parts; Bucket keys (base64url, no dots) never look like one. */
export function looksLikeJwt(value: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);
}
