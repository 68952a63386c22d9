import { randomBytes } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { UnauthorizedError } from '../errors/http-errors.js';
import { readOptions } from '../db/service-db.js';

const VALIDITY_SECONDS = 3600;
const ISSUER = 'content-api';

interface SettingDoc {
  _id: string;
  value: string;
}

/**
 * The signing secret: PREVIEW_TOKEN_SECRET when set, otherwise one generated once and kept in
 * the database, so every app process on it signs and verifies alike without configuration.
 * One per app (see lib/app-state.ts), so it is read from that app's own database: apps on
 * two databases never sign with each other's secret.
 */
export class PreviewSecret {
  private pending: Promise<Uint8Array> | null = null;

  constructor(
    private readonly db: Db,
    private readonly configured: string | null,
    /** The settings document holding it; account tokens keep theirs apart (lib/accounts/request-account.ts). */
    private readonly settingId = 'preview_token_secret',
  ) {}

  get(): Promise<Uint8Array> {
    if (this.configured) return Promise.resolve(new TextEncoder().encode(this.configured));
    // A failed read is not kept: the next request tries again.
    this.pending ??= this.load().catch((err: unknown) => {
      this.pending = null;
      throw err;
    });
    return this.pending;
  }

  private async load(): Promise<Uint8Array> {
    const settings = this.db.collection<SettingDoc>('settings');
    // $setOnInsert makes concurrent first starts agree on one secret.
    await settings.updateOne(
      { _id: this.settingId },
      { $setOnInsert: { value: randomBytes(32).toString('base64') } },
      { upsert: true },
    );
    const stored = await settings.findOne({ _id: this.settingId }, readOptions(this.db));
    if (!stored) throw new Error(`settings.${this.settingId} is missing right after its upsert`);
    return Buffer.from(stored.value, 'base64');
  }
}

export interface IssuedPreviewToken {
  preview_token: string;
  expires_at: string;
}

/** A token bound to one Bucket (and optionally one Object), valid one hour. */
export async function issuePreviewToken(
  secret: PreviewSecret,
  bucket: BucketDoc,
  objectId: string | null,
  now = new Date(),
): Promise<IssuedPreviewToken> {
  const exp = Math.floor(now.getTime() / 1000) + VALIDITY_SECONDS;
  const jwt = new SignJWT(objectId ? { obj: objectId } : {})
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setSubject(bucket._id.toHexString())
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(exp);
  return {
    preview_token: await jwt.sign(await secret.get()),
    expires_at: new Date(exp * 1000).toISOString(),
  };
}

/** Throws 401 unless the token was issued here for this Bucket and has not expired. */
export async function verifyPreviewToken(
  secret: PreviewSecret,
  bucket: BucketDoc,
  token: string,
  now = new Date(),
): Promise<void> {
  const key = await secret.get();
  try {
    await jwtVerify(token, key, {
      issuer: ISSUER,
      subject: bucket._id.toHexString(),
      algorithms: ['HS256'],
      currentDate: now,
    });
  } catch (err) {
    const expired = err instanceof joseErrors.JWTExpired;
    throw new UnauthorizedError(
      expired
        ? 'The preview_token has expired: request a new one'
        : `The preview_token is not valid for bucket '${bucket.slug}'`,
    );
  }
}
