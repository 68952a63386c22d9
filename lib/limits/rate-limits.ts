// Rate limits: which credential a request is charged to, the per-credential limiter, and the leased
// budgets that let several processes share one limit.
import type { Db } from 'mongodb';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitSettings } from '../config/traffic-settings.js';
import type { Request, Response } from 'express';
import type { BucketDoc } from '../db/collections.js';
import { clientOfAddress } from '../http/connection-limits.js';
import { bearerKey, keyMatches, bucketOf } from '../http/request.js';

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

/** What a claim on the shared counter of a key answered. */
export interface Claimed {
  /** Units counted in the key's current window after the claim, the claim included. */
  consumed: number;
  /** When that window ends, in ms since the epoch. */
  resetAt: number;
}

/** Adds `units` to the shared counter of `key` in its current window, atomically, and tells the total. */
export type Claim = (key: string, units: number) => Promise<Claimed>;

export interface Admission {
  allowed: boolean;
  limit: number;
  /** Units the key may still use in the window, as this process last learnt it. */
  remaining: number;
  /** When the window ends (ms since the epoch): the budget is whole again then. */
  resetAt: number;
}

interface Lease {
  /** Units this process claimed from the window and has not used yet. */
  held: number;
  /** The window's units nobody had claimed at the last claim. */
  unclaimed: number;
  resetAt: number;
  claiming: Promise<void> | null;
}

export interface LeaseOptions {
  /** The most units one claim takes: the most a process can hold unused (default 64). */
  maxBlock?: number;
  /** Keys remembered; past it, ended windows are forgotten first, then the oldest (default 50,000). */
  maxKeys?: number;
  now?: () => number;
}

/**
 * Admits work against a per-key limit whose count is shared by every process through a store
 * (MongoDB), without a round trip per request: a process claims units in blocks and spends them
 * locally. A block is at most 1/16 of what is left unclaimed, so near the limit blocks shrink to
 * one unit and every admission is counted in the store before it is granted. No process ever
 * admits more than it claimed, so all processes together never pass the limit; the price is that
 * units one process holds unused are not available to another until the window ends.
 *
 * A claim past the limit still counts in the store; only the units that fitted under the limit
 * (the claim's first `limit - before` units) are granted, so a late large block cannot strand
 * units that were still free.
 */
export class LeasedBudget {
  private readonly leases = new Map<string, Lease>();
  private readonly maxBlock: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(
    readonly limit: number,
    private readonly claim: Claim,
    options: LeaseOptions = {},
  ) {
    this.maxBlock = options.maxBlock ?? 64;
    this.maxKeys = options.maxKeys ?? 50_000;
    this.now = options.now ?? Date.now;
  }

  async admit(key: string): Promise<Admission> {
    for (;;) {
      const lease = this.leaseOf(key);
      if (lease.held > 0) {
        lease.held--;
        this.prefetch(key, lease);
        return this.answer(true, lease);
      }
      if (lease.claiming) {
        await lease.claiming;
        continue;
      }
      if (lease.resetAt > this.now() && lease.unclaimed === 0) return this.answer(false, lease);
      await this.startClaim(key, lease);
    }
  }

  private answer(allowed: boolean, lease: Lease): Admission {
    return { allowed, limit: this.limit, remaining: lease.unclaimed + lease.held, resetAt: lease.resetAt };
  }

  private blockFor(lease: Lease): number {
    return Math.max(1, Math.min(this.maxBlock, Math.floor(lease.unclaimed / 16)));
  }

  /** The key's lease in its current window; a window that ended leaves nothing behind. */
  private leaseOf(key: string): Lease {
    const found = this.leases.get(key);
    if (found && (found.resetAt > this.now() || found.claiming)) return found;
    if (!found && this.leases.size >= this.maxKeys) this.forgetSome();
    const fresh: Lease = { held: 0, unclaimed: this.limit, resetAt: 0, claiming: null };
    this.leases.set(key, fresh);
    return fresh;
  }

  private forgetSome(): void {
    const now = this.now();
    for (const [k, l] of this.leases) if (l.resetAt <= now && !l.claiming) this.leases.delete(k);
    // Still full of live windows: the oldest go, and their unused units with them (never too many admitted).
    for (const k of this.leases.keys()) {
      if (this.leases.size < this.maxKeys) break;
      this.leases.delete(k);
    }
  }

  private startClaim(key: string, lease: Lease): Promise<void> {
    const units = this.blockFor(lease);
    const claiming = this.claim(key, units)
      .then(({ consumed, resetAt }) => {
        const before = consumed - units;
        lease.held += Math.max(0, Math.min(units, this.limit - before));
        lease.unclaimed = Math.max(0, this.limit - consumed);
        lease.resetAt = resetAt;
      })
      .finally(() => {
        lease.claiming = null;
      });
    lease.claiming = claiming;
    return claiming;
  }

  /**
   * Claims the next block before this one runs out, so requests far from the limit never wait
   * for the store. Near the limit (blocks of one unit) nothing is claimed ahead.
   */
  private prefetch(key: string, lease: Lease): void {
    const block = this.blockFor(lease);
    if (block === 1 || lease.claiming || lease.held > block / 4) return;
    // A failed claim ahead is not a request's failure: the next request that needs units claims again.
    this.startClaim(key, lease).catch(() => undefined);
  }
}

export interface Credential {
  /** Whose per-minute budget the request spends. */
  budgetKey: string;
  /** A key of the Bucket was presented, or the Bucket needs none for this kind of request. */
  entitled: boolean;
}

/** Whose share a request counts against when no key speaks for it: its address (IPv6: its /64). */
export function clientOf(req: Request): string {
  return clientOfAddress(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}

/** The budget of the Bucket's write key, however the key was presented. */
export function writeKeyBudget(bucket: BucketDoc): string {
  return `${bucket._id.toHexString()}:write-key`;
}

/**
 * The credential a request presents to its Bucket. A key counts as itself only when it is one of
 * the Bucket's keys; anything else (no key, a wrong key, a write key sent only in a legacy body,
 * which is not read yet) spends the budget of the client's address, so made-up keys cannot buy
 * fresh budgets; a body write key spends its key's budget too once read (lib/limits/rate-limits.ts). An account token of a user of the Bucket counts as that account.
 */
export function credentialOf(req: Request, bucket: BucketDoc, kind: RequestKind, memberId?: string): Credential {
  const id = bucket._id.toHexString();
  if (memberId !== undefined) return { budgetKey: `${id}:account:${memberId}`, entitled: true };
  const readKeyParam: unknown = req.query.read_key;
  const presented = [bearerKey(req), typeof readKeyParam === 'string' ? readKeyParam : undefined];
  if (presented.some((k) => keyMatches(k, bucket.write_key_hash)))
    return { budgetKey: writeKeyBudget(bucket), entitled: true };
  if (presented.some((k) => keyMatches(k, bucket.read_key_hash)))
    return { budgetKey: `${id}:read-key`, entitled: kind === 'read' };
  const open = (kind === 'read' ? bucket.read_key_hash : bucket.write_key_hash) === null;
  return { budgetKey: `${id}:ip:${clientOf(req)}`, entitled: open };
}

/** What the gate leaves for later: spending the write key's budget, once the body is read. */
type Deferred = () => Promise<void>;

interface BodyKeyLocals {
  bodyKeyAdmission?: Deferred | undefined;
}

const locals = (res: Response): BodyKeyLocals => res.locals as BodyKeyLocals;

/**
 * Called by the request gate for a write it counted against the client's address: the request
 * may still carry the write key in its body (`write_key`, the legacy clients' way), which the
 * gate cannot see because it runs before the body is read, so that refused requests cost nothing.
 */
export function deferBodyKeyAdmission(res: Response, admit: Deferred): void {
  locals(res).bodyKeyAdmission = admit;
}

/**
 * Runs once a write body or upload form is parsed: when its `write_key` is the Bucket's write key
 * and the gate could only count the request against the address, it spends the key's budget too
 * (429 once that is used), so a spent write key gains no second budget by moving into the body.
 * At most once per request.
 */
export async function admitBodyKey(req: Request, res: Response): Promise<void> {
  const admit = locals(res).bodyKeyAdmission;
  if (!admit) return;
  locals(res).bodyKeyAdmission = undefined;
  const body = req.body as Record<string, unknown> | undefined;
  const presented = typeof body?.write_key === 'string' ? body.write_key : undefined;
  if (keyMatches(presented, bucketOf(res).write_key_hash)) await admit();
}
