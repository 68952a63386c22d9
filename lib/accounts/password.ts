import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** OWASP Password Storage Cheat Sheet: scrypt with N=2^17, r=8, p=1 (128 MiB per hash). */
const LOG_N = 17;
const BLOCK_SIZE = 8;
const PARALLEL = 1;
const KEY_BYTES = 64;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  // maxmem must exceed 128·N·r, or node refuses the parameters.
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (err, key) => {
      if (err) reject(err);
      else resolve(key);
    });
  });
}

/** `scrypt$logN$r$p$salt$hash`: the cost travels with the hash, so it can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, LOG_N, BLOCK_SIZE, PARALLEL);
  return ['scrypt', LOG_N, BLOCK_SIZE, PARALLEL, salt.toString('base64'), key.toString('base64')].join('$');
}

/** False for a wrong password or a malformed stored value; never throws on either. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), Number(logN), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let decoy: Promise<string> | null = null;

/**
 * A hash of a random password with the same cost, verified against when the e-mail is unknown,
 * so an unknown address costs as much time as a wrong password and cannot be told apart.
 */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(24).toString('base64url'));
  return decoy;
}

/** A password printed once by `bucketctl create-account` when none is given. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
