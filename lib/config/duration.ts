const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+)(ms|s|m|h|d)?$/;

/**
 * The one duration parser of the configuration: "45s", "30m", "12h", "7d", "250ms" → milliseconds.
 * A bare number is read in `bareUnit`, or refused when there is none; null when malformed.
 */
export function parseDuration(text: string, bareUnit: keyof typeof UNIT_MS | null): number | null {
  const m = DURATION.exec(text.trim());
  if (!m) return null;
  const unit = (m[2] as keyof typeof UNIT_MS | undefined) ?? bareUnit;
  return unit === null ? null : Number(m[1]) * UNIT_MS[unit];
}

/** "30s,2m,1h" → milliseconds, each step with its unit; null when any step is malformed. Empty: none. */
export function parseDurations(text: string): number[] | null {
  const out: number[] = [];
  for (const step of text.split(',').map((s) => s.trim())) {
    if (step === '') continue;
    const ms = parseDuration(step, null);
    if (ms === null) return null;
    out.push(ms);
  }
  return out;
}
