/** The default waits before each retry: 30 s, 2 min, 10 min, 1 h, 6 h, 24 h (then the delivery fails). */
export const DEFAULT_RETRY_SCHEDULE = '30s,2m,10m,1h,6h,24h';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const STEP = /^(\d+)(ms|s|m|h|d)$/;

/** "30s,2m,1h" → milliseconds; null when any step is malformed. An empty text means no retries. */
export function parseRetrySchedule(text: string): number[] | null {
  const steps = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const out: number[] = [];
  for (const step of steps) {
    const m = STEP.exec(step);
    if (!m) return null;
    out.push(Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS]);
  }
  return out;
}

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
