import fs from 'node:fs';
import { cpuMsOf } from '../bench/proc-cpu.js';
import type { ProbeSample } from './probe.js';
import { findEngine, rssOf } from './proc.js';
import { is5xx, type Stats } from './stats.js';

/** One point of the time series: the soak's own view every PROGRESS_MS. */
export interface Point {
  /** Seconds since the load started. */
  s: number;
  requests: number;
  rps: number;
  fiveXx: number;
  noAnswer: number;
  serverRss: number | null;
  engineRss: number | null;
  /** Event-loop lag p99 and max over the last probe interval, ms. */
  lagP99: number | null;
  lagMax: number | null;
  /** Bytes of the files in DATA_DIR (the engine's database file). */
  dataBytes: number;
  /** CPU used over the interval, in % of one core (null across a restart of that process). */
  serverCpu: number | null;
  engineCpu: number | null;
}

export interface EngineSample {
  t: number;
  pid: number;
  rss: number;
}

const ENGINE_SAMPLE_MS = 1000;
const PROGRESS_MS = 10_000;
const MB = 1024 * 1024;

function dirBytes(dir: string): number {
  let total = 0;
  try {
    for (const f of fs.readdirSync(dir)) total += fs.statSync(`${dir}/${f}`).size;
  } catch {
    // A file removed while listing: counted as absent.
  }
  return total;
}

export function readProbe(file: string): ProbeSample[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ProbeSample);
}

const mb = (n: number | null) => (n === null ? '   -' : (n / MB).toFixed(0).padStart(4));

/** Samples the engine's RSS every second and prints a progress line every ten. */
export class Monitor {
  readonly engine: EngineSample[] = [];
  readonly points: Point[] = [];
  private timers: NodeJS.Timeout[] = [];
  private t0 = 0;
  private lastRequests = 0;
  private lastAt = 0;
  private lastCpu = new Map<number, number>();

  constructor(
    private readonly serverPid: () => number | null,
    private readonly probeFile: string,
    private readonly dataDir: string,
    private readonly stats: Stats,
  ) {}

  dataBytes(): number {
    return dirBytes(this.dataDir);
  }

  enginePid(): number | null {
    const server = this.serverPid();
    return server === null ? null : findEngine(server);
  }

  sampleEngine(): EngineSample | null {
    const pid = this.enginePid();
    const rss = pid === null ? null : rssOf(pid);
    if (pid === null || rss === null) return null;
    const s = { t: Date.now(), pid, rss };
    this.engine.push(s);
    return s;
  }

  start(): void {
    this.t0 = Date.now();
    this.lastAt = this.t0;
    this.timers.push(setInterval(() => this.sampleEngine(), ENGINE_SAMPLE_MS));
    this.timers.push(
      setInterval(() => {
        this.progress();
      }, PROGRESS_MS),
    );
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  /** % of one core a process used since the previous progress line; null the first time it is seen. */
  private cpuShare(pid: number | null, now: number): number | null {
    if (pid === null) return null;
    const cpu = cpuMsOf(pid);
    const before = this.lastCpu.get(pid);
    if (cpu === null) return null;
    this.lastCpu.set(pid, cpu);
    return before === undefined ? null : Math.round(((cpu - before) * 100) / Math.max(1, now - this.lastAt));
  }

  private progress(): void {
    const now = Date.now();
    const requests = this.stats.total;
    const last = readProbe(this.probeFile).at(-1);
    const server = this.serverPid();
    const p: Point = {
      s: Math.round((now - this.t0) / 1000),
      requests,
      rps: Math.round(((requests - this.lastRequests) * 1000) / Math.max(1, now - this.lastAt)),
      fiveXx: this.stats.count(is5xx),
      noAnswer: this.stats.count((s) => s === 'no answer' || s === 'refused'),
      serverRss: server === null ? null : rssOf(server),
      engineRss: this.engine.at(-1)?.rss ?? null,
      lagP99: last ? last.lag.p99 : null,
      lagMax: last ? last.lag.max : null,
      dataBytes: this.dataBytes(),
      serverCpu: server === null ? null : this.cpuShare(server, now),
      engineCpu: this.cpuShare(this.enginePid(), now),
    };
    this.points.push(p);
    this.lastRequests = requests;
    this.lastAt = now;
    console.log(
      `[soak] ${String(p.s).padStart(5)} s  ${String(p.requests).padStart(8)} req  ${String(p.rps).padStart(5)}/s  ` +
        `5xx ${p.fiveXx}  no answer ${p.noAnswer}  rss server ${mb(p.serverRss)} MB engine ${mb(p.engineRss)} MB  ` +
        `lag p99 ${p.lagP99?.toFixed(1) ?? '-'} ms max ${p.lagMax?.toFixed(1) ?? '-'} ms  data ${mb(p.dataBytes)} MB  ` +
        `cpu server ${p.serverCpu ?? '-'} % engine ${p.engineCpu ?? '-'} %`,
    );
  }
}
