import type { Sample } from './measure.js';
import type { ServerMode } from './server-child.js';

export interface Row {
  scenario: string;
  server: ServerMode;
  rps: number;
  p50: number;
  p99: number;
  meanMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  peakRssMb: number;
  bodyKb: number;
  /** Throughput of every round, the median of which the other columns describe. */
  roundsRps: number[];
  serverCpuMsPerReq: number | null;
  engineCpuMsPerReq: number | null;
  /**
   * Server plus engine CPU per request in each round, and their median: what a request costs,
   * which moves less than throughput when others load the machine.
   */
  cpuMsPerReqRounds: number[];
  cpuMsPerReq: number | null;
  /** CPU others took on the machine during the run, in % of one core: high means noise. */
  otherCpuPct: number | null;
}

export interface Ratio {
  name: string;
  value: number;
  target: string;
  ok: boolean;
}

const MB = 1024 * 1024;

export function toRow(
  scenario: string,
  server: Row['server'],
  samples: Sample[],
  median: Sample,
  bodyBytes: number,
): Row {
  const r = median.result;
  const perReq = (ms: number | null) => (ms === null ? null : ms / median.served);
  const cpuRounds = samples.flatMap((x) =>
    x.serverCpuMs === null || x.engineCpuMs === null ? [] : [(x.serverCpuMs + x.engineCpuMs) / x.served],
  );
  return {
    scenario,
    server,
    // Completed 2xx answers over the wall time: requests.average would also count errors.
    rps: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    meanMs: r.latency.mean,
    requests: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    peakRssMb: median.peakRss / MB,
    bodyKb: bodyBytes / 1024,
    roundsRps: samples.map((x) => x.result['2xx'] / x.result.duration),
    serverCpuMsPerReq: perReq(median.serverCpuMs),
    engineCpuMsPerReq: perReq(median.engineCpuMs),
    cpuMsPerReqRounds: cpuRounds,
    cpuMsPerReq: medianOf(cpuRounds),
    otherCpuPct: median.otherCpuMs === null ? null : (median.otherCpuMs / (r.duration * 1000)) * 100,
  };
}

const fixed = (n: number | null, digits = 1) => (n === null ? '-' : n.toFixed(digits));

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function rowSummary(r: Row): Record<string, unknown> {
  return {
    rps: round(r.rps),
    p50_ms: r.p50,
    p99_ms: r.p99,
    mean_ms: round(r.meanMs),
    non2xx: r.non2xx,
    errors: r.errors,
    peak_rss_mb: round(r.peakRssMb),
    body_kb: round(r.bodyKb),
    server_cpu_ms_per_req: roundOrNull(r.serverCpuMsPerReq),
    engine_cpu_ms_per_req: roundOrNull(r.engineCpuMsPerReq),
    cpu_ms_per_req_median: roundOrNull(r.cpuMsPerReq),
    cpu_ms_per_req_rounds: r.cpuMsPerReqRounds.map(round),
    other_cpu_pct: roundOrNull(r.otherCpuPct),
    rounds_rps: r.roundsRps.map(round),
  };
}

export function printReport(rows: Row[], ratios: Ratio[], extra: Record<string, unknown>): void {
  console.log('\nThroughput and latency (the median round of each scenario)');
  console.log(
    table(
      ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'mean ms', '2xx', 'non2xx', 'errors', 'req/s per round'],
      rows.map((r) => [
        r.scenario,
        r.rps.toFixed(1),
        r.p50.toFixed(1),
        r.p99.toFixed(1),
        r.meanMs.toFixed(2),
        String(r.requests),
        String(r.non2xx),
        String(r.errors),
        r.roundsRps.map((x) => x.toFixed(1)).join(' / '),
      ]),
    ),
  );
  console.log('\nResources (peak RSS over all rounds; CPU of the median round)');
  console.log(
    table(
      [
        'scenario',
        'peak RSS MB',
        'body KB',
        'server CPU ms/req',
        'engine CPU ms/req',
        'other CPU %',
        'CPU ms/req, median of rounds',
        'per round',
      ],
      rows.map((r) => [
        r.scenario,
        r.peakRssMb.toFixed(1),
        r.bodyKb.toFixed(1),
        fixed(r.serverCpuMsPerReq, 2),
        fixed(r.engineCpuMsPerReq, 2),
        fixed(r.otherCpuPct, 0),
        fixed(r.cpuMsPerReq, 2),
        r.cpuMsPerReqRounds.map((x) => x.toFixed(1)).join(' / '),
      ]),
    ),
  );
  console.log('\nRatios');
  console.log(
    table(
      ['ratio', 'value', 'target', 'met'],
      ratios.map((q) => [
        q.name,
        Number.isInteger(q.value) ? String(q.value) : q.value.toFixed(2),
        q.target,
        q.ok ? 'yes' : 'NO',
      ]),
    ),
  );
  const summary = {
    ...extra,
    scenarios: Object.fromEntries(rows.map((r) => [r.scenario, rowSummary(r)])),
    ratios: Object.fromEntries(ratios.map((q) => [q.name, { value: round(q.value), target: q.target, ok: q.ok }])),
  };
  console.log(`\nBENCH_SUMMARY ${JSON.stringify(summary)}`);
}

function medianOf(values: number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? null : (sorted[Math.floor((sorted.length - 1) / 2)] ?? null);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function roundOrNull(n: number | null): number | null {
  return n === null ? null : round(n);
}
