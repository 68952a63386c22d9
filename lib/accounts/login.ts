import type { Db } from 'mongodb';
import { BadRequestError, UnauthorizedError } from '../errors/http-errors.js';
import { isPlainObject } from '../util/plain-object.js';
import { decoyHash, verifyPassword } from './password.js';
import { findAccountByEmail, type AccountDoc } from './store.js';
import { assertLoginAllowed, clearFailedLogins, recordFailedLogin } from './throttle.js';
import type { AccountTokens, IssuedAccountToken } from './tokens.js';

const MAX_FIELD = 1024;

function credentials(body: unknown): { email: string; password: string } {
  const b = isPlainObject(body) ? body : {};
  const problems: string[] = [];
  const field = (name: 'email' | 'password'): string => {
    const v = b[name];
    if (typeof v !== 'string' || v === '') problems.push(`${name} is required and must be a non-empty string`);
    else if (v.length > MAX_FIELD) problems.push(`${name} must be at most ${MAX_FIELD} characters`);
    else return v;
    return '';
  };
  const email = field('email');
  const password = field('password');
  if (problems.length > 0) throw new BadRequestError(`Invalid body: ${problems.join('; ')}`, 'invalid_body');
  return { email, password };
}

/**
 * E-mail and password → a token. An unknown e-mail, a pending account and a wrong password all
 * cost one scrypt and answer the same 401, so neither the message nor the time tells them apart.
 */
export async function login(
  db: Db,
  tokens: AccountTokens,
  body: unknown,
): Promise<{ account: AccountDoc; issued: IssuedAccountToken }> {
  const { email, password } = credentials(body);
  await assertLoginAllowed(db, email);
  const account = await findAccountByEmail(db, email);
  const ok = await verifyPassword(password, account?.password_hash ?? (await decoyHash()));
  if (!account?.password_hash || !ok) {
    await recordFailedLogin(db, email);
    throw new UnauthorizedError('The e-mail or password is not correct');
  }
  await clearFailedLogins(db, email);
  return { account, issued: await tokens.issue(account) };
}
