/**
 * Settings of the traffic limits, typed where the environment is read (lib/config.ts), so the
 * configuration imports no part that uses it.
 */

export interface RateLimitSettings {
  /** Reads (GET, HEAD) per minute per Bucket and credential; 0 turns the limit off. */
  readsPerMinute: number;
  /** Every other method, per minute per Bucket and credential; 0 turns the limit off. */
  writesPerMinute: number;
}

/** Login attempts allowed and password checks run at once (LOGIN_* settings). */
export interface LoginSettings {
  /** Attempts per e-mail (known or not) within a window; at least 1. */
  perEmail: number;
  /** Attempts per client address (IPv6: per /64) within a window; 0 turns the limit off. */
  perAddress: number;
  /** Length of a window, in seconds; it starts at the first attempt it counts. */
  windowSeconds: number;
  /** Past the address limit, one attempt per this many seconds still gets a check. */
  trickleSeconds: number;
  /** Password checks (scrypt, 128 MiB each) one process runs at once. */
  concurrency: number;
  /** Logins one process lets wait for a check; one more is answered 503 login_busy. */
  queue: number;
}
