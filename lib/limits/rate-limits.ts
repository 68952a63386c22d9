import type { Db } from 'mongodb';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { LeasedBudget, type Admission, type Claim } from './leased-budget.js';
import type { RateLimitSettings } from '../config/traffic-settings.js';

/** Fixed one-minute windows per key, counted by rate-limiter-flexible in this collection. */
export const RATE_LIMITS_COLLECTION = 'rate_limits';
const WINDOW_SECONDS = 60;

export type RequestKind = 'read' | 'write';

/**
 * The library keeps one document per key and window and adds to it atomically (an upsert with
 * $inc), which every process shares. Its own index creation is left to ensureRateLimitIndexes,
 * run with the others at start-up, rather than fired unawaited from its constructor.
 */
function mongoClaim(db: Db, kind: RequestKind, limit: number): Claim {
  const limiter = new RateLimiterMongo({
    storeClient: db,
    tableName: RATE_LIMITS_COLLECTION,
    keyPrefix: kind,
    points: limit,
    duration: WINDOW_SECONDS,
    disableIndexesCreation: true,
  });
  return async (key, units) => {
    const res = await limiter.consume(key, units).catch((refused: unknown) => {
      // Past the limit the claim is still counted; the library answers with the count as a rejection.
      if (refused instanceof RateLimiterRes) return refused;
      throw refused;
    });
    return { consumed: res.consumedPoints, resetAt: Date.now() + res.msBeforeNext };
  };
}

/** The read and write budgets of one app, shared with every process on the same database. */
export class RateLimits {
  private readonly budgets = new Map<RequestKind, LeasedBudget>();

  constructor(db: Db, settings: RateLimitSettings) {
    const limits: [RequestKind, number][] = [
      ['read', settings.readsPerMinute],
      ['write', settings.writesPerMinute],
    ];
    for (const [kind, limit] of limits) {
      if (limit > 0) this.budgets.set(kind, new LeasedBudget(limit, mongoClaim(db, kind, limit)));
    }
  }

  /** Spends one request of `key`'s budget of `kind`; null when that kind is not limited. */
  admit(kind: RequestKind, key: string): Promise<Admission> | null {
    return this.budgets.get(kind)?.admit(key) ?? null;
  }
}

/** The unique key the library's upsert relies on, and expiry of ended windows. */
export async function ensureRateLimitIndexes(db: Db): Promise<void> {
  const windows = db.collection(RATE_LIMITS_COLLECTION);
  await windows.createIndex({ key: 1 }, { unique: true, name: 'key_unique' }, undefined);
  await windows.createIndex({ expire: 1 }, { expireAfterSeconds: 0, name: 'expire_ttl' }, undefined);
}
