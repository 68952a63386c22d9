import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Preloaded into the server under soak (`node --import probe.js dist/bin/server.js`), so the
 * service itself carries no measuring code. Every SOAK_PROBE_INTERVAL_MS it appends one JSON line
 * to SOAK_PROBE_FILE: memory, and the event-loop delay of the interval and of the process's life.
 */
export interface ProbeSample {
  /** Epoch ms. */
  t: number;
  pid: number;
  rss: number;
  heapUsed: number;
  external: number;
  /** Event-loop lag in ms beyond the timer's own resolution, over the last interval. */
  lag: LagSummary;
  /** The same since the process started, or since the last SIGUSR2 (the start of the load). */
  lagLife: LagSummary;
}

export interface LagSummary {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

const file = process.env.SOAK_PROBE_FILE;
const RESOLUTION_MS = 10;

if (file) {
  const intervalMs = Number(process.env.SOAK_PROBE_INTERVAL_MS) || 1000;
  const interval = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  const life = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  interval.enable();
  life.enable();
  // The histogram records the whole timer period; the lag is what exceeds it.
  const lagMs = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  const summary = (h: ReturnType<typeof monitorEventLoopDelay>): LagSummary => ({
    p50: lagMs(h.percentile(50)),
    p99: lagMs(h.percentile(99)),
    max: lagMs(h.max),
    count: h.count,
  });
  const sample = () => {
    const mem = process.memoryUsage();
    const line: ProbeSample = {
      t: Date.now(),
      pid: process.pid,
      rss: mem.rss,
      heapUsed: mem.heapUsed,
      external: mem.external,
      lag: summary(interval),
      lagLife: summary(life),
    };
    interval.reset();
    try {
      fs.appendFileSync(file, JSON.stringify(line) + '\n');
    } catch {
      // A probe must never take the server down.
    }
  };
  setInterval(sample, intervalMs).unref();
  // The soak signals the start of its load: the life histogram then leaves start-up and setup out.
  process.on('SIGUSR2', () => {
    life.reset();
  });
  process.on('exit', sample);
}
