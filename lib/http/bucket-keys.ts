import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 192 random bits: long enough that a plain SHA-256 digest is a safe way to store it. */
export function generateKey(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Keys are random high-entropy secrets (not passwords), so a fast digest is enough and keeps
 * authentication off the request's critical path; a slow KDF would cost every read.
 */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Compares a presented key with a stored digest without leaking timing. */
export function keyMatches(presented: string | undefined, storedHash: string | null): boolean {
  if (presented === undefined || storedHash === null) return false;
  const a = Buffer.from(hashKey(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
