import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Db, ObjectId } from 'mongodb';
import { PreviewSecret } from '../preview/preview-tokens.js';

export interface QueryParam {
  key: string;
  value: string;
}

const ISSUER = 'content-api';
const AUDIENCE = 'extension-query-param';

/**
 * An extension's query parameters are stored as HS256 tokens, one per parameter, bound to the
 * extension by `sub`: a token copied to another extension or edited in the database fails its
 * check and is not served. The secret is generated once and kept in the database, as the
 * preview-token secret is, so every process signs and verifies alike.
 */
export class QueryParamTokens {
  private readonly secret: PreviewSecret;

  constructor(db: Db) {
    this.secret = new PreviewSecret(db, null, 'extension_query_param_secret');
  }

  async sign(extensionId: ObjectId, params: readonly QueryParam[]): Promise<string[]> {
    const secret = await this.secret.get();
    return Promise.all(
      params.map(({ key, value }) =>
        new SignJWT({ k: key, v: value })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setSubject(extensionId.toHexString())
          .sign(secret),
      ),
    );
  }

  /** The parameters, or null when any token fails its check: then none is served. */
  async decode(extensionId: ObjectId, tokens: readonly string[]): Promise<QueryParam[] | null> {
    const secret = await this.secret.get();
    const params: QueryParam[] = [];
    for (const token of tokens) {
      try {
        const { payload } = await jwtVerify(token, secret, {
          issuer: ISSUER,
          audience: AUDIENCE,
          subject: extensionId.toHexString(),
          algorithms: ['HS256'],
        });
        if (typeof payload.k !== 'string' || typeof payload.v !== 'string') return null;
        params.push({ key: payload.k, value: payload.v });
      } catch (err) {
        if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
        throw err;
      }
    }
    return params;
  }
}

/** `url` with the parameters appended to its query string (kept as it is when it is not a URL). */
export function withQueryParams(url: string, params: readonly QueryParam[]): string {
  if (params.length === 0) return url;
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed) return url;
  for (const { key, value } of params) parsed.searchParams.append(key, value);
  return parsed.href;
}
