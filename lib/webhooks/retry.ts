/** "30s,2m,1h" → milliseconds (the configuration's one duration parser); null when a step is malformed. */
export { parseDurations as parseRetrySchedule } from '../config/duration.js';

/** How much a wait may stray from its step either way, so endpoints that failed together do not retry together. */
export const JITTER = 0.2;

/**
 * The wait before the retry after the `tries`-th failed attempt of a round, or null when the
 * schedule is used up and the delivery fails. `random` is in [0, 1).
 */
export function retryDelay(schedule: readonly number[], tries: number, random: number): number | null {
  const step = schedule[tries - 1];
  if (step === undefined) return null;
  return Math.round(step * (1 - JITTER + 2 * JITTER * random));
}
