import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { ObjectId, type Db } from 'mongodb';
import type { Config } from '../config.js';
import { UnauthorizedError } from '../errors/http-errors.js';
import { PreviewSecret } from '../preview/preview-tokens.js';
import { findAccountById, type AccountDoc } from './store.js';

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
