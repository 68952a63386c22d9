import assert from 'node:assert/strict';
import autocannon from 'autocannon';
import { cpuMsOf, descendantCpuMs, machineBusyMs } from './proc-cpu.js';
import type { ServerHandle } from './server-handle.js';

export interface Scenario {
  name: string;
  server: ServerHandle;
  path: string;
  /** Where the answer keeps the page, to check that two scenarios return the same one. */
  shape: PageShape;
  /** Sent with every request (Parse's application id). */
  headers?: Record<string, string>;
  /** Overrides LoadOptions.connections, e.g. 1 to see latency without queueing. */
  connections?: number;
}

export interface PageShape {
  /** Where the page object sits in the answer (["data", "posts"] for GraphQL); the answer itself when absent. */
  under?: readonly string[];
  /** The array of items: `objects` here, `results` in Parse. */
  list: string;
  /** The item field compared across scenarios: an id within one database, a title across servers. */
  key: string;
  /** The count of all matches: `total` here, `count` in Parse. */
  total: string;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** Every server child, so their CPU is not counted as the engine's. */
  serverPids: ReadonlySet<number>;
}

export interface Sample {
  result: autocannon.Result;
  /** Requests the CPU figures cover: every request the load sent, and the one that waited for them. */
  served: number;
  peakRss: number;
  serverCpuMs: number | null;
  engineCpuMs: number | null;
  loadGenCpuMs: number;
  /** Busy CPU of the machine not used by the benchmark's own processes during the run. */
  otherCpuMs: number | null;
}

export interface Page {
  keys: string[];
  total: unknown;
  bytes: number;
  /** The whole answer, for checks of its content. */
  body: Record<string, unknown>;
}

/** One request before the load, so a scenario that answers errors or the wrong page fails loudly. */
export async function checkPage(s: Scenario): Promise<Page> {
  const url = s.server.baseUrl + s.path;
  const res = await fetch(url, { headers: s.headers ?? {} });
  const text = await res.text();
  assert.equal(res.status, 200, `${s.name}: ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as Record<string, unknown>;
  // A GraphQL answer keeps its page under data.<field>.
  const page = s.shape.under
    ? (s.shape.under.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], body) as Record<string, unknown>)
    : body;
  const items = page[s.shape.list] as Array<Record<string, unknown>>;
  assert.equal(items.length, 100, `${s.name}: answered ${items.length} items, not 100`);
  return {
    keys: items.map((o) => String(o[s.shape.key])),
    total: page[s.shape.total],
    bytes: Buffer.byteLength(text),
    body,
  };
}

/** A request may queue behind the others for long on a slow scenario; only a stuck one is an error. */
const REQUEST_TIMEOUT_SECONDS = 60;

export function load(
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration: seconds, headers, timeout: REQUEST_TIMEOUT_SECONDS });
}

/**
 * Waits for the requests a load left in flight: autocannon stops at the end of its time, but the
 * server keeps working on what it received. One more request, answered after the work queued
 * before it (the engine serves one collection's queries in turn), marks the end of that work.
 */
async function settle(url: string, headers: Record<string, string> = {}): Promise<void> {
  await (await fetch(url, { headers })).arrayBuffer();
}

function delta(after: number | null, before: number | null): number | null {
  return after === null || before === null ? null : after - before;
}

/** A short warm-up, then one measured run with the CPU of every party accounted for. */
export async function measureOnce(s: Scenario, o: LoadOptions): Promise<Sample> {
  const url = s.server.baseUrl + s.path;
  const connections = s.connections ?? o.connections;
  await load(url, connections, o.warmupSeconds, s.headers);
  await settle(url, s.headers);
  await s.server.resetPeak();
  const before = {
    server: cpuMsOf(s.server.pid),
    engine: descendantCpuMs(o.serverPids),
    self: process.cpuUsage(),
    machine: machineBusyMs(),
  };
  const result = await load(url, connections, o.seconds, s.headers);
  // CPU is counted until the requests left in flight are done, and divided over all requests sent.
  await settle(url, s.headers);
  const self = process.cpuUsage(before.self);
  const serverCpuMs = delta(cpuMsOf(s.server.pid), before.server);
  const engineCpuMs = delta(descendantCpuMs(o.serverPids), before.engine);
  const machine = delta(machineBusyMs(), before.machine);
  const loadGenCpuMs = (self.user + self.system) / 1000;
  const ours = loadGenCpuMs + (serverCpuMs ?? 0) + (engineCpuMs ?? 0);
  return {
    result,
    served: result.requests.sent + 1,
    peakRss: await s.server.peakRss(),
    serverCpuMs,
    engineCpuMs,
    loadGenCpuMs,
    otherCpuMs: machine === null ? null : Math.max(0, machine - ours),
  };
}

/** The round with the median throughput stands for the scenario; peak RSS is the highest seen. */
export function medianSample(samples: Sample[]): Sample {
  const sorted = [...samples].sort((a, b) => a.result['2xx'] / a.result.duration - b.result['2xx'] / b.result.duration);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!median) throw new Error('medianSample needs at least one sample');
  return { ...median, peakRss: Math.max(...samples.map((x) => x.peakRss)) };
}
