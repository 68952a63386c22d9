import type { Db } from 'mongodb';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { retryLater } from '../errors/retry-later.js';
import type { HttpError } from '../errors/http-errors.js';
import { RATE_LIMITS_COLLECTION } from '../limits/rate-limits.js';
import { emailKey } from './store.js';
import type { LoginSettings } from '../config/traffic-settings.js';

type Refusal = (retryAfterSeconds: number) => HttpError;

function limiter(db: Db, keyPrefix: string, points: number, windowSeconds: number): RateLimiterMongo {
  // The same collection, unique key index and expiry as the request budgets (ensureRateLimitIndexes).
  return new RateLimiterMongo({
    storeClient: db,
    tableName: RATE_LIMITS_COLLECTION,
    keyPrefix,
    points,
    duration: windowSeconds,
    disableIndexesCreation: true,
  });
}

/**
 * Counts every login attempt, per e-mail and per client address, in MongoDB before the password
 * is checked: one upsert with `$inc` per key (rate-limiter-flexible's MongoDB store) returns the
 * new count, so however many attempts race, in one process or many, at most the limit of a
 * window get a count under it and reach the check; the others are refused at once with 429.
 *
 * Every attempt counts, a successful one too, and nothing resets a count before its window ends.
 * A reset on success would let whoever logs in (the account's owner from a script, or an attacker
 * with one known password sharing an address budget) hand fresh guesses to attempts against the
 * same e-mail or from the same address; without one, the limit bounds the password checks of a
 * window exactly. Tokens last days, so an owner needs few logins per window.
 */
export class LoginThrottle {
  private readonly perEmail: RateLimiterMongo;
  private readonly perAddress: RateLimiterMongo | null;
  /**
   * Past its limit, an address still gets one attempt per `trickleSeconds`: many people share one
   * address (an office, a NAT), and a flood from it would otherwise lock all of them out for the
   * rest of the window. The flood itself still gets a check only that often.
   */
  private readonly trickle: RateLimiterMongo | null;

  constructor(
    db: Db,
    private readonly settings: LoginSettings,
  ) {
    this.perEmail = limiter(db, 'login-email', settings.perEmail, settings.windowSeconds);
    this.perAddress =
      settings.perAddress > 0 ? limiter(db, 'login-address', settings.perAddress, settings.windowSeconds) : null;
    this.trickle =
      settings.perAddress > 0 && settings.trickleSeconds > 0
        ? limiter(db, 'login-address-trickle', 1, settings.trickleSeconds)
        : null;
  }

  /** Counts one attempt for the e-mail and for the address; 429 login_throttled when either is past its limit. */
  async count(email: string, client: string): Promise<void> {
    const { perEmail, perAddress, windowSeconds, trickleSeconds } = this.settings;
    const minutes = Math.round(windowSeconds / 60);
    const within = minutes >= 1 ? `${minutes} minutes` : `${windowSeconds} seconds`;
    const key = emailKey(email);
    // Both are counted whatever the other answers, so neither count can be dodged by tripping the other.
    const [byEmail, byAddress] = await Promise.all([
      this.consume(this.perEmail, key, (s) =>
        throttled(`for the e-mail ${key}: at most ${perEmail} attempts in ${within}`, s),
      ),
      this.perAddress &&
        this.consume(this.perAddress, client, (s) =>
          throttled(`from this address: at most ${perAddress} attempts in ${within}`, s),
        ),
    ]);
    if (byEmail === null && byAddress && this.trickle) {
      // The address is past its limit: one attempt per trickle period still goes on.
      const late = await this.consume(this.trickle, client, (s) =>
        throttled(
          `from this address: at most ${perAddress} attempts in ${within}, then one per ${trickleSeconds} s`,
          s,
        ),
      );
      if (late) throw late;
      return;
    }
    const refusal = byEmail ?? byAddress;
    if (refusal) throw refusal;
  }

  private async consume(rl: RateLimiterMongo, key: string, refuse: Refusal): Promise<HttpError | null> {
    try {
      await rl.consume(key);
      return null;
    } catch (refused) {
      // Past the limit the library rejects with the window's state; anything else is a store failure.
      if (!(refused instanceof RateLimiterRes)) throw refused;
      return refuse(Math.max(1, Math.ceil(refused.msBeforeNext / 1000)));
    }
  }
}

function throttled(detail: string, retryAfterSeconds: number): HttpError {
  return retryLater(
    429,
    `Too many login attempts ${detail}; retry after ${retryAfterSeconds} s`,
    'login_throttled',
    retryAfterSeconds,
  );
}
