import type { ContentionChecks } from './contention-ops.js';
import { inOutage, type FaultEvent } from './faults.js';
import type { EngineSample, Point } from './monitor.js';
import type { SoakOptions } from './options.js';
import type { CreateRetries } from './ledger.js';
import type { LagSummary, ProbeSample } from './probe.js';
import { is5xx, percentile, type Incident, type Stats } from './stats.js';
import type { Verification } from './verify.js';
import type { WebhookCheck } from './webhook-check.js';

export interface KindRow {
  kind: string;
  requests: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
}

export interface MemoryReport {
  /** Right after setup, before the load; after the first minute of load; at the end of the load. */
  start: number | null;
  warm: number | null;
  end: number | null;
  max: number | null;
  /** Growth per minute over the second half of the load (least squares), MB/min. */
  slopeMbPerMin: number | null;
}

export interface SoakReport {
  options: SoakOptions;
  startedAt: string;
  durationS: number;
  requests: number;
  rps: number;
  fiveXx: { total: number; outsideOutages: number; duringOutages: number };
  noAnswer: { total: number; outsideOutages: number };
  unexpected4xx: number;
  staleReads: { checked: number; stale: number };
  /** Creates retried with their Idempotency-Key, and how many unclear attempts had written anyway. */
  createRetries: CreateRetries;
  contention: ContentionChecks;
  kinds: KindRow[];
  server: MemoryReport & { lives: number; lag: LagSummary | null };
  engine: MemoryReport;
  /** Size of DATA_DIR: before the load, after it, and after the two clean stops that follow. */
  dataDirBytes: { start: number; end: number; afterCleanStops: number };
  /** CPU the machine spent on things other than the soak, its server and engine (other work sharing it). */
  otherCpuShare: number | null;
  faults: FaultEvent[];
  webhooks: WebhookCheck;
  verification: Verification;
  /** After a clean restart of the server: the same checks again. */
  afterRestart: Verification | null;
  incidents: { total: number; bySort: Record<string, number>; samples: Incident[] };
  timeline: Point[];
  failures: string[];
}

const MB = 1024 * 1024;

export function kindRows(stats: Stats): KindRow[] {
  return [...stats.kinds.entries()]
    .map(([kind, s]) => {
      const sorted = [...s.latencies].sort((a, b) => a - b);
      return {
        kind,
        requests: s.requests,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? NaN,
        statuses: s.statuses,
      };
    })
    .sort((a, b) => b.requests - a.requests);
}

function slope(samples: Array<{ t: number; v: number }>): number | null {
  if (samples.length < 10) return null;
  const n = samples.length;
  const mt = samples.reduce((s, x) => s + x.t, 0) / n;
  const mv = samples.reduce((s, x) => s + x.v, 0) / n;
  let num = 0;
  let den = 0;
  for (const x of samples) {
    num += (x.t - mt) * (x.v - mv);
    den += (x.t - mt) ** 2;
  }
  return den === 0 ? null : (num / den) * 60_000;
}

/** Memory over the load window [t0, t1], from samples of (time, bytes). */
export function memoryReport(samples: Array<{ t: number; v: number }>, t0: number, t1: number): MemoryReport {
  const before = samples.filter((x) => x.t <= t0).at(-1) ?? samples[0];
  const warm = samples.find((x) => x.t >= t0 + 60_000);
  const during = samples.filter((x) => x.t >= t0 && x.t <= t1);
  const end = during.at(-1);
  const half = during.filter((x) => x.t >= (t0 + t1) / 2);
  return {
    start: before?.v ?? null,
    warm: warm && warm.t <= t1 ? warm.v : null,
    end: end?.v ?? null,
    max: during.length > 0 ? Math.max(...during.map((x) => x.v)) : null,
    slopeMbPerMin: (() => {
      const s = slope(half.map((x) => ({ t: x.t, v: x.v / MB })));
      return s === null ? null : Math.round(s * 100) / 100;
    })(),
  };
}

/** The lag summary of the longest-lived server process within the load. */
export function lagOf(probe: ProbeSample[], t1: number): LagSummary | null {
  const lastPerPid = new Map<number, ProbeSample>();
  for (const p of probe) if (p.t <= t1 + 2000) lastPerPid.set(p.pid, p);
  const lives = [...lastPerPid.values()].sort((a, b) => b.lagLife.count - a.lagLife.count);
  const longest = lives[0];
  if (!longest) return null;
  return { ...longest.lagLife, max: Math.max(...lives.map((l) => l.lagLife.max)) };
}

export function incidentSummary(incidents: Incident[], faults: FaultEvent[]) {
  const bySort: Record<string, number> = {};
  for (const i of incidents) {
    const key = `${i.kind} ${i.what}${inOutage(i, faults) ? ' [outage]' : ''}`;
    bySort[key] = (bySort[key] ?? 0) + 1;
  }
  return { total: incidents.length, bySort, samples: incidents.filter((i) => i.detail !== undefined).slice(0, 60) };
}

export function fiveXxSplit(incidents: Incident[], faults: FaultEvent[]) {
  const five = incidents.filter((i) => is5xx(i.what.slice(0, 3)));
  const during = five.filter((i) => inOutage(i, faults)).length;
  return { total: five.length, outsideOutages: five.length - during, duringOutages: during };
}

export function engineSeries(samples: EngineSample[]) {
  return samples.map((s) => ({ t: s.t, v: s.rss }));
}
