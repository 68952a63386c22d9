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
