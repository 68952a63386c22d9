import fs from 'node:fs';
import path from 'node:path';
import { descendantCpuMs, machineBusyMs } from '../bench/proc-cpu.js';
import { injectFaults, inOutage, ServiceHolder, type FaultEvent } from './faults.js';
import { Client } from './http.js';
import { Ledger } from './ledger.js';
import { Monitor, readProbe } from './monitor.js';
import { parseOptions, USAGE, type SoakOptions } from './options.js';
import { printReport } from './print.js';
import { Random } from './random.js';
import {
  engineSeries,
  fiveXxSplit,
  incidentSummary,
  kindRows,
  lagOf,
  memoryReport,
  type SoakReport,
} from './report.js';
import { startService, engineUri, tempServiceEnv } from './service.js';
import { keysFromCli, registerWebhook, seedFixture } from './setup.js';
import { Stats } from './stats.js';
import { verify, type Verification } from './verify.js';
import { checkDeliveries, waitForDrain, type WebhookCheck } from './webhook-check.js';
import { startWebhookReceiver } from './webhook-receiver.js';
import { runWorker } from './worker.js';
import { BASE, type WorkerState } from './worker-state.js';

/*
 * Soak and fault test: the real server (`node dist/bin/server.js`, embedded engine, fresh
 * DATA_DIR) under a mixed load at full speed for a while, every acknowledged write kept in a
 * ledger and checked against the database at the end, memory and event-loop lag followed over
 * time. With --faults it kills the engine and/or the server at random moments meanwhile.
 * Not part of `npm test`; see `npm run soak -- --help`.
 */

const START_TIMEOUT_MS = 180_000;
/** Longer than the first retry waits of the default schedule, so a delivery cut by a fault gets its retry. */
const DRAIN_MAX_MS = 180_000;

function failures(r: Omit<SoakReport, 'failures'>, staleOutside: number): string[] {
  const f: string[] = [];
  const lost = r.verification.lost.length + (r.afterRestart?.lost.length ?? 0);
  if (lost > 0) f.push(`${lost} acknowledged writes lost`);
  if (r.contention.lostUpdates > 0)
    f.push(`${r.contention.lostUpdates} acknowledged PATCHes lost to a concurrent PATCH of the same Object`);
  if (r.contention.viewSplits > 0) f.push(`${r.contention.viewSplits} times concurrent PATCHes left live ≠ latest`);
  if (r.options.faults === 'none' && r.fiveXx.total > 0) f.push(`${r.fiveXx.total} answers were 5xx`);
  if (r.options.faults !== 'none' && r.fiveXx.outsideOutages > 0)
    f.push(`${r.fiveXx.outsideOutages} 5xx outside outages`);
  if (staleOutside > 0) f.push(`${staleOutside} reads showed an older version than an acknowledged write`);
  const checks: Array<[string, Verification | null]> = [['after restart', r.afterRestart]];
  // Without faults nothing is ever interrupted, so the running service must be in step too.
  if (r.options.faults === 'none') checks.push(['while running', r.verification]);
  for (const [when, v] of checks) {
    if (!v) continue;
    if (v.viewProblems.length > 0) f.push(`${v.viewProblems.length} Objects with views out of step ${when}`);
    if (v.pendingMarkers > 0) f.push(`${v.pendingMarkers} pending-write markers left ${when}`);
    if (v.duplicates > 0) f.push(`${v.duplicates} creates stored twice ${when}`);
    if (v.damagedMedia.length > 0) f.push(`${v.damagedMedia.length} media records without their file ${when}`);
    if (v.api.mismatches.length > 0) f.push(`${v.api.mismatches.length} API reads disagree with the database ${when}`);
  }
  if (r.faults.some((e) => e.recoveredAt === null)) f.push('the service did not recover from a fault');
  const w: WebhookCheck = r.webhooks;
  if (w.missingTotal > 0) f.push(`${w.missingTotal} webhook events of acknowledged writes never arrived`);
  if (w.badSignatures > 0) f.push(`${w.badSignatures} webhook requests with a bad signature`);
  return f;
}

async function main(opts: SoakOptions): Promise<number> {
  const env = await tempServiceEnv('content-api-soak-');
  const tmp = path.dirname(env.dataDir);
  console.log(`[soak] DATA_DIR ${env.dataDir}, port ${env.port}, server log ${env.logFile}, seed ${opts.seed}`);
  const first = await startService(env, { timeoutMs: START_TIMEOUT_MS, attempts: 1 });
  const holder = new ServiceHolder(first.service, env);
  console.log(`[soak] server ${first.service.pid} ready in ${first.ms} ms`);
  const keys = await keysFromCli(env);
  const fixture = await seedFixture(new Client(first.service.baseUrl, keys.writeKey, new Stats()), keys);
  const receiver = await startWebhookReceiver();
  receiver.setSecret(
    await registerWebhook(new Client(first.service.baseUrl, keys.writeKey, new Stats()), receiver.url),
  );

  const stats = new Stats();
  const ledger = new Ledger();
  const client = new Client(first.service.baseUrl, keys.writeKey, stats);
  const monitor = new Monitor(
    () => (holder.current.running ? holder.current.pid : null),
    env.probeFile,
    env.dataDir,
    stats,
  );
  const rand = new Random(opts.seed);
  const checks = { checked: 0, stale: 0 };
  const contention = { pairs: 0, lostUpdates: 0, viewSplits: 0 };
  const workers: WorkerState[] = Array.from({ length: opts.concurrency }, (_, n) => ({
    n,
    client,
    ledger,
    fixture,
    rand: new Random(opts.seed + n + 1),
    cap: opts.objectsPerWorker,
    owned: [],
    attachable: [],
    scratch: [],
    seq: 0,
    checks,
    contendedId: opts.contention ? null : undefined,
    contention,
  }));

  // Let the probe write a sample of the idle server first.
  await new Promise((r) => setTimeout(r, 1500));
  monitor.sampleEngine();
  const dataStart = monitor.dataBytes();
  const cpu0 = { machine: machineBusyMs(), ours: descendantCpuMs(new Set()), self: process.cpuUsage() };
  process.kill(holder.current.pid, 'SIGUSR2');
  const t0 = Date.now();
  const deadline = t0 + opts.durationMs;
  const done = () => Date.now() >= deadline;
  const faults: FaultEvent[] = [];
  const readPath = `${BASE}/objects?${new URLSearchParams({ read_key: keys.readKey, limit: '1', useCache: 'false' })}`;
  monitor.start();
  console.log(`[soak] load for ${opts.durationMs / 1000} s with ${opts.concurrency} workers, faults: ${opts.faults}`);
  await Promise.all([
    ...workers.map((w) => runWorker(w, done)),
    opts.faults === 'none'
      ? Promise.resolve()
      : injectFaults(opts.faults, opts.faultIntervalMs, rand, holder, done, faults, readPath),
  ]);
  const t1 = Date.now();
  monitor.sampleEngine();
  monitor.stop();
  const dataEnd = monitor.dataBytes();
  const self = process.cpuUsage(cpu0.self);
  const cpu1 = { machine: machineBusyMs(), ours: descendantCpuMs(new Set()) };
  const machine = cpu0.machine === null || cpu1.machine === null ? null : cpu1.machine - cpu0.machine;
  const ours = (cpu1.ours ?? 0) - (cpu0.ours ?? 0) + (self.user + self.system) / 1000;
  console.log(`[soak] load done after ${((t1 - t0) / 1000).toFixed(0)} s; checking the ledger`);

  await holder.current.waitReady(START_TIMEOUT_MS);
  const verification = await verify(engineUri(env.dataDir), holder.current.baseUrl, keys.readKey, ledger, false);
  const stopped = await holder.current.stop();
  if (!stopped.graceful) console.log('[soak] the server did not stop cleanly on SIGTERM');
  await holder.restartAfterKill();
  // Start-up repair has run now: every write that reached its commit point must be complete.
  const afterRestart = await verify(engineUri(env.dataDir), holder.current.baseUrl, keys.readKey, ledger, true);
  // Deliveries still queued (a retry after a fault, say) go out now; the wait is part of the report.
  const drain = await waitForDrain(engineUri(env.dataDir), DRAIN_MAX_MS);
  await holder.current.stop();
  await receiver.close();
  const webhooks = checkDeliveries(ledger.events, receiver, drain);
  const dataAfterRestart = monitor.dataBytes();

  const probe = readProbe(env.probeFile);
  const fiveXx = fiveXxSplit(stats.incidents, faults);
  const noAnswer = stats.incidents.filter((i) => i.what === 'no answer' || i.what === 'refused');
  const staleOutside = stats.incidents.filter((i) => i.what === 'stale read' && !inOutage(i, faults)).length;
  const partial: Omit<SoakReport, 'failures'> = {
    options: opts,
    startedAt: new Date(t0).toISOString(),
    durationS: Math.round((t1 - t0) / 1000),
    requests: stats.total,
    rps: Math.round((stats.total * 1000) / (t1 - t0)),
    fiveXx,
    noAnswer: { total: noAnswer.length, outsideOutages: noAnswer.filter((i) => !inOutage(i, faults)).length },
    unexpected4xx: stats.incidents.filter((i) => i.what.startsWith('unexpected')).length,
    staleReads: checks,
    createRetries: ledger.createRetries,
    contention,
    kinds: kindRows(stats),
    server: {
      ...memoryReport(
        probe.map((p) => ({ t: p.t, v: p.rss })),
        t0,
        t1,
      ),
      lives: holder.lives,
      lag: lagOf(probe, t1),
    },
    engine: memoryReport(engineSeries(monitor.engine), t0, t1),
    dataDirBytes: { start: dataStart, end: dataEnd, afterCleanStops: dataAfterRestart },
    otherCpuShare: machine === null || machine <= 0 ? null : Math.max(0, (machine - ours) / machine),
    faults,
    webhooks,
    verification,
    afterRestart,
    incidents: incidentSummary(stats.incidents, faults),
    timeline: monitor.points,
  };
  const report: SoakReport = { ...partial, failures: failures(partial, staleOutside) };
  if (!stopped.graceful) report.failures.push('the server did not stop cleanly on SIGTERM');
  fs.writeFileSync(opts.reportFile, JSON.stringify(report, null, 2));
  printReport(report, opts.reportFile);
  if (opts.keepData || report.failures.length > 0) console.log(`[soak] data and server log kept in ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
  return report.failures.length === 0 ? 0 : 1;
}

let options: SoakOptions | 'help';
try {
  options = parseOptions(process.argv.slice(2), process.env);
} catch (err) {
  console.error(`soak: ${(err as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (options === 'help') {
  console.log(USAGE);
  process.exit(0);
}
main(options).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`soak: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  },
);
