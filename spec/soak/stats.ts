/** What happened to the requests of one kind of operation. */
export interface KindStats {
  requests: number;
  /** HTTP status (or "no answer", "refused") → count. */
  statuses: Record<string, number>;
  /** Milliseconds of every request that got an HTTP answer. */
  latencies: number[];
}

/** A 5xx, an unexpected 4xx or a request without answer, with when it happened. */
export interface Incident {
  /** When the request that met it was sent, and when it ended (epoch ms). */
  start: number;
  t: number;
  kind: string;
  what: string;
  /** The first bytes of the body or the error, for the first few of each sort. */
  detail?: string;
}

const SAMPLES_KEPT = 8;

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

export class Stats {
  readonly kinds = new Map<string, KindStats>();
  readonly incidents: Incident[] = [];
  private readonly detailed = new Map<string, number>();
  total = 0;

  private of(kind: string): KindStats {
    let s = this.kinds.get(kind);
    if (!s) {
      s = { requests: 0, statuses: {}, latencies: [] };
      this.kinds.set(kind, s);
    }
    return s;
  }

  record(kind: string, status: string, ms: number | null): void {
    const s = this.of(kind);
    s.requests++;
    this.total++;
    s.statuses[status] = (s.statuses[status] ?? 0) + 1;
    if (ms !== null) s.latencies.push(ms);
  }

  /** Keeps every incident's time and sort; the body only of the first few of each sort. */
  incident(kind: string, what: string, detail: string, start = Date.now()): void {
    const key = `${kind} ${what}`;
    const seen = this.detailed.get(key) ?? 0;
    this.detailed.set(key, seen + 1);
    const t = Date.now();
    this.incidents.push(seen < SAMPLES_KEPT ? { start, t, kind, what, detail } : { start, t, kind, what });
  }

  count(pred: (status: string) => boolean): number {
    let n = 0;
    for (const s of this.kinds.values()) for (const [status, c] of Object.entries(s.statuses)) if (pred(status)) n += c;
    return n;
  }
}

export const is5xx = (status: string) => /^5\d\d$/.test(status);
