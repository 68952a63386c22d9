import { randomBytes } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { UnauthorizedError } from '../errors/http-errors.js';
import { readOptions } from './query-time-limit.js';

const VALIDITY_SECONDS = 3600;
const ISSUER = 'content-api';

interface SettingDoc {
  _id: string;
  value: string;
}

let cachedSecret: Uint8Array | null = null;

/**
 * The signing secret: PREVIEW_TOKEN_SECRET when set, otherwise one generated once and kept in
 * the database, so every app process on it signs and verifies alike without configuration.
 */
async function signingSecret(db: Db, configured: string | null): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  if (cachedSecret) return cachedSecret;
  const settings = db.collection<SettingDoc>('settings');
  // $setOnInsert makes concurrent first starts agree on one secret.
  await settings.updateOne(
    { _id: 'preview_token_secret' },
    { $setOnInsert: { value: randomBytes(32).toString('base64') } },
    { upsert: true },
  );
  const stored = await settings.findOne({ _id: 'preview_token_secret' }, readOptions(db));
  if (!stored) throw new Error('settings.preview_token_secret is missing right after its upsert');
  cachedSecret = Buffer.from(stored.value, 'base64');
  return cachedSecret;
}

export interface IssuedPreviewToken {
  preview_token: string;
  expires_at: string;
}

/** A token bound to one Bucket (and optionally one Object), valid one hour. */
export async function issuePreviewToken(
  db: Db,
  configured: string | null,
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
    preview_token: await jwt.sign(await signingSecret(db, configured)),
    expires_at: new Date(exp * 1000).toISOString(),
  };
}

/** Throws 401 unless the token was issued here for this Bucket and has not expired. */
export async function verifyPreviewToken(
  db: Db,
  configured: string | null,
  bucket: BucketDoc,
  token: string,
  now = new Date(),
): Promise<void> {
  try {
    await jwtVerify(token, await signingSecret(db, configured), {
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
