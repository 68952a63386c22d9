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
