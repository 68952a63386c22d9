import type { FaultMode } from './options.js';
import { alive, findEngine } from './proc.js';
import type { Random } from './random.js';
import { startService, type ServiceEnv, type ServiceProcess } from './service.js';

/** One injected fault, from the kill until the service answered /v3/status with 200 again. */
export interface FaultEvent {
  what: 'engine' | 'app';
  t: number;
  pid: number;
  recoveredAt: number | null;
  /** Server lives started until one served (app faults). */
  startAttempts?: number;
  detail: string;
}

/** Errors this long after a recovery still belong to the outage (requests that were in flight). */
export const OUTAGE_GRACE_MS = 3000;
const RECOVERY_TIMEOUT_MS = 180_000;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

/** The running server, replaced when an app fault kills it. */
export class ServiceHolder {
  lives = 1;
  constructor(
    public current: ServiceProcess,
    readonly env: ServiceEnv,
  ) {}

  async restartAfterKill(): Promise<number> {
    const { service, attempts } = await startService(this.env, { timeoutMs: RECOVERY_TIMEOUT_MS, attempts: 30 });
    this.current = service;
    this.lives += attempts;
    return attempts;
  }
}

/**
 * Waits until a read that must reach the database succeeds. /v3/status alone would answer 200 at
 * once after an engine kill: the driver notices a dead server only at its next heartbeat or failed
 * operation.
 */
async function waitServing(holder: ServiceHolder, readPath: string): Promise<number | null> {
  const deadline = Date.now() + RECOVERY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${holder.current.baseUrl}${readPath}`, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.status === 200 || res.status === 404) return Date.now();
    } catch {
      // Not back yet.
    }
    await sleep(100);
  }
  return null;
}

async function killEngine(holder: ServiceHolder, readPath: string): Promise<FaultEvent | null> {
  const pid = findEngine(holder.current.pid);
  if (pid === null) return null;
  const t = Date.now();
  process.kill(pid, 'SIGKILL');
  // The supervisor starts a new engine after its back-off; until then nothing can be served.
  const deadline = t + RECOVERY_TIMEOUT_MS;
  while (Date.now() < deadline && [null, pid].includes(findEngine(holder.current.pid))) await sleep(50);
  const recoveredAt = await waitServing(holder, readPath);
  const next = findEngine(holder.current.pid);
  const detail =
    next === null
      ? 'no engine process after the kill'
      : `engine ${pid} → ${next}${alive(pid) ? ' (the old one still runs!)' : ''}`;
  return { what: 'engine', t, pid, recoveredAt, detail };
}

async function killApp(holder: ServiceHolder): Promise<FaultEvent> {
  const pid = holder.current.pid;
  const engine = findEngine(pid);
  const t = Date.now();
  await holder.current.killHard();
  const startAttempts = await holder.restartAfterKill();
  const recoveredAt = Date.now();
  const orphan = engine !== null && alive(engine) ? `; its engine ${engine} outlived it` : '';
  return { what: 'app', t, pid, recoveredAt, startAttempts, detail: `server ${pid} → ${holder.current.pid}${orphan}` };
}

/**
 * Kills the engine or the server at random moments until `done()`; each fault waits for recovery,
 * which `readPath` (a GET that reads the database) answering 200 or 404 proves.
 */
export async function injectFaults(
  mode: Exclude<FaultMode, 'none'>,
  meanIntervalMs: number,
  rand: Random,
  holder: ServiceHolder,
  done: () => boolean,
  events: FaultEvent[],
  readPath: string,
): Promise<void> {
  for (;;) {
    const wait = meanIntervalMs * (0.5 + rand.next());
    const until = Date.now() + wait;
    while (Date.now() < until) {
      if (done()) return;
      await sleep(Math.min(500, until - Date.now()));
    }
    if (done()) return;
    const what = mode === 'both' ? (rand.chance(0.5) ? 'engine' : 'app') : mode;
    const event = what === 'engine' ? await killEngine(holder, readPath) : await killApp(holder);
    if (!event) continue;
    events.push(event);
    const took = event.recoveredAt === null ? 'did not recover' : `back in ${event.recoveredAt - event.t} ms`;
    console.log(`[soak] fault: killed the ${event.what} (pid ${event.pid}); ${took}; ${event.detail}`);
  }
}

/** Did the request that met the incident overlap an outage (from the kill to shortly after recovery)? */
export function inOutage(i: { start: number; t: number }, events: readonly FaultEvent[]): boolean {
  return events.some((e) => i.t >= e.t && i.start <= (e.recoveredAt ?? Infinity) + OUTAGE_GRACE_MS);
}
