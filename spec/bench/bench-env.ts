/** Benchmark settings from the environment: a bad value stops the run before anything starts. */
export function intEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

/** A comma-separated list of integers, e.g. BENCH_PEER_POSTS=5000,50000. */
export function intListEnv(name: string, fallback: number[], min = 1): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw.split(',').map((part) => {
    const n = Number(part.trim());
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must list integers >= ${min}, got "${raw}"`);
    return n;
  });
}
