import type { Db } from 'mongodb';
import { BadRequestError, UnauthorizedError } from '../errors/http-errors.js';
import { retryLater } from '../errors/retry-later.js';
import { SaturatedError, Semaphore } from '../util/semaphore.js';
import { isPlainObject } from '../util/values.js';
import { decoyHash, verifyPassword } from './password.js';
import { findAccountByEmail, type AccountDoc } from './store.js';
import { LoginThrottle } from './throttle.js';
import type { LoginSettings } from '../config/traffic-settings.js';
import type { AccountTokens, IssuedAccountToken } from './request-account.js';

const MAX_FIELD = 1024;
/**
 * A check takes a fraction of a second; a login waiting longer than this, counted from its
 * arrival (its counts and the account's read included), is better told to retry.
 */
const MAX_WAIT_MS = 5000;
const BUSY_RETRY_AFTER_SECONDS = 2;

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
 * E-mail and password → a token, for one app. An unknown e-mail, a pending account and a wrong
 * password all cost one scrypt and answer the same 401, so neither the message nor the time tells
 * them apart. That makes every attempt cost 128 MiB and a fraction of a CPU second, so:
 * - each attempt is counted per e-mail and per client address before anything else (LoginThrottle,
 *   shared by every process through MongoDB), and one past a limit is refused without a check;
 * - a process runs at most `concurrency` checks at once (scrypt runs in libuv's thread pool, which
 *   file and zlib work share), with a short queue; past it a login is answered 503 login_busy at
 *   once, so a flood turns into quick refusals rather than every login waiting behind it.
 */
export class Logins {
  private readonly throttle: LoginThrottle;
  private readonly checks: Semaphore;

  constructor(
    private readonly db: Db,
    private readonly tokens: AccountTokens,
    settings: LoginSettings,
  ) {
    this.throttle = new LoginThrottle(db, settings);
    this.checks = new Semaphore({ concurrent: settings.concurrency, waiting: settings.queue, maxWaitMs: MAX_WAIT_MS });
  }

  /** `client`: whose address budget the attempt spends (clientOf, lib/limits/rate-limits.ts). */
  async login(body: unknown, client: string): Promise<{ account: AccountDoc; issued: IssuedAccountToken }> {
    const deadline = Date.now() + MAX_WAIT_MS;
    const { email, password } = credentials(body);
    await this.throttle.count(email, client);
    const account = await findAccountByEmail(this.db, email);
    const ok = await this.check(
      async () => verifyPassword(password, account?.password_hash ?? (await decoyHash())),
      deadline - Date.now(),
    );
    if (!account?.password_hash || !ok) throw new UnauthorizedError('The e-mail or password is not correct');
    return { account, issued: await this.tokens.issue(account) };
  }

  private async check(work: () => Promise<boolean>, maxWaitMs: number): Promise<boolean> {
    try {
      return await this.checks.run(work, maxWaitMs);
    } catch (err) {
      if (!(err instanceof SaturatedError)) throw err;
      throw retryLater(
        503,
        `Too many logins are being checked right now (${err.reason}); retry in ${BUSY_RETRY_AFTER_SECONDS} s`,
        'login_busy',
        BUSY_RETRY_AFTER_SECONDS,
      );
    }
  }
}
