import type { MemoryReport, SoakReport } from './report.js';
import type { Verification } from './verify.js';

const MB = 1024 * 1024;
const mb = (n: number | null) => (n === null ? '-' : `${(n / MB).toFixed(0)} MB`);
const ms = (n: number) => (Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(1) : n.toFixed(0));

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  '))
    .join('\n');
}

function memory(name: string, m: MemoryReport): string[] {
  const slope = m.slopeMbPerMin === null ? '-' : `${m.slopeMbPerMin} MB/min`;
  return [name, mb(m.start), mb(m.warm), mb(m.end), mb(m.max), slope];
}

function verification(title: string, v: Verification): string {
  const lines = [
    `${title}: ${v.objects} Objects and ${v.media} media in the ledger; lost acknowledged writes ${v.lost.length}; ` +
      `unclear writes that happened ${v.unknownApplied}, did not ${v.unknownNotApplied}; duplicates ${v.duplicates}; ` +
      `views out of step ${v.viewProblems.length}; pending markers ${v.pendingMarkers}; ` +
      `media without their file ${v.damagedMedia.length}; ` +
      `API sample ${v.api.checked} reads, ${v.api.mismatches.length} mismatches`,
  ];
  for (const l of v.lost.slice(0, 10))
    lines.push(
      `  LOST ${l.what} ${l.token} ${l.id ?? ''}: expected ${l.expected}; found ${l.found} [${l.history.join(', ')}]`,
    );
  for (const p of v.viewProblems.slice(0, 10)) lines.push(`  VIEWS ${p.id}: ${p.problem}`);
  for (const d of v.damagedMedia.slice(0, 5)) lines.push(`  MEDIA ${d}`);
  for (const m of v.api.mismatches.slice(0, 5)) lines.push(`  API ${m}`);
  return lines.join('\n');
}

export function printReport(r: SoakReport, reportFile: string): void {
  const out: string[] = [];
  out.push('', '=== soak summary ===');
  out.push(
    `duration ${r.durationS} s, ${r.requests} requests, ${r.rps} req/s, concurrency ${r.options.concurrency}, faults ${r.options.faults}`,
  );
  out.push(
    `5xx ${r.fiveXx.total} (outside outages ${r.fiveXx.outsideOutages}); no answer ${r.noAnswer.total} ` +
      `(outside outages ${r.noAnswer.outsideOutages}); unexpected 4xx ${r.unexpected4xx}; ` +
      `stale reads ${r.staleReads.stale} of ${r.staleReads.checked} checked`,
  );
  const cr = r.createRetries;
  out.push(
    `creates retried with their Idempotency-Key ${cr.retried}: answered 5xx, written anyway ${cr.answered5xxWrittenAnyway}; ` +
      `no answer, written anyway ${cr.noAnswerWrittenAnyway}; out of retries ${cr.gaveUp}`,
  );
  const c = r.contention;
  out.push(`concurrent PATCH pairs ${c.pairs}: a change lost in ${c.lostUpdates}, live ≠ latest after ${c.viewSplits}`);
  out.push(
    '',
    table([
      ['kind', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'statuses'],
      ...r.kinds.map((k) => [
        k.kind,
        String(k.requests),
        ms(k.p50),
        ms(k.p99),
        ms(k.max),
        Object.entries(k.statuses)
          .map(([s, n]) => `${s}:${n}`)
          .join(' '),
      ]),
    ]),
  );
  out.push(
    '',
    table([
      ['RSS', 'start', 'after 1 min', 'end', 'max', 'trend (2nd half)'],
      memory('server', r.server),
      memory('engine', r.engine),
    ]),
  );
  const d = r.dataDirBytes;
  out.push(
    `DATA_DIR: ${mb(d.start)} before the load, ${mb(d.end)} after it, ${mb(d.afterCleanStops)} after clean stops`,
  );
  if (r.server.lag) {
    const l = r.server.lag;
    out.push(
      `event-loop lag (server): p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms`,
    );
  }
  out.push(
    `server processes started ${r.server.lives}; other CPU on the machine ${r.otherCpuShare === null ? '-' : `${(r.otherCpuShare * 100).toFixed(0)} %`}`,
  );
  if (r.faults.length > 0) {
    const recovery = r.faults.map((f) => (f.recoveredAt === null ? 'never' : `${f.recoveredAt - f.t}`)).join(', ');
    out.push(`faults: ${r.faults.length} (${r.faults.map((f) => f.what).join(', ')}); recovery ms: ${recovery}`);
  }
  const w = r.webhooks;
  const lat = w.latency ? `, latency p50 ${w.latency.p50} ms p99 ${w.latency.p99} ms max ${w.latency.max} ms` : '';
  out.push(
    `webhooks: ${w.delivered}/${w.expected} owed events arrived (${w.missingTotal} missing), ${w.received} requests, ${w.repeats} repeats, ${w.badSignatures} bad signatures${lat}; outbox drained in ${w.drainMs} ms, ${w.pendingAtCheck} pending, ${w.failed} failed`,
  );
  for (const m of w.missing.slice(0, 5)) out.push(`  missing: ${m}`);
  out.push('', verification('ledger check (service running)', r.verification));
  if (r.afterRestart) out.push(verification('ledger check (after a clean restart)', r.afterRestart));
  const sorts = Object.entries(r.incidents.bySort).sort((a, b) => b[1] - a[1]);
  if (sorts.length > 0) {
    out.push('', 'incidents:');
    for (const [sort, n] of sorts.slice(0, 20)) out.push(`  ${String(n).padStart(6)}  ${sort}`);
    const firsts = r.incidents.samples.filter((i) => /^5\d\d|unexpected|stale|wrong/.test(i.what)).slice(0, 8);
    for (const i of firsts) out.push(`  first: ${i.kind} ${i.what}: ${i.detail ?? ''}`);
  }
  out.push('', r.failures.length === 0 ? 'PASS' : `FAIL: ${r.failures.join('; ')}`, `report: ${reportFile}`);
  console.log(out.join('\n'));
}
