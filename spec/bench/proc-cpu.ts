import fs from 'node:fs';

/**
 * CPU time of processes, read from /proc, to tell engine time from server time per request.
 * Linux reports utime/stime in USER_HZ ticks, which the kernel ABI fixes at 100 per second.
 */
const TICK_MS = 10;

interface Stat {
  ppid: number;
  cpuMs: number;
}

function readStat(pid: number): Stat | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces or parentheses; the fields after its last ")" do not.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
  } catch {
    return null;
  }
}

/**
 * Total CPU ms of this process's descendants other than `exclude` (and their own children):
 * with an embedded engine that is the engine's CPU. Null when /proc is not there, or when no
 * such descendant exists (an external MONGODB_URI server).
 */
export function descendantCpuMs(exclude: ReadonlySet<number>): number | null {
  let pids: number[];
  try {
    pids = fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return null;
  }
  const stats = new Map<number, Stat>();
  for (const pid of pids) {
    const s = readStat(pid);
    if (s) stats.set(pid, s);
  }
  const children = new Map<number, number[]>();
  for (const [pid, s] of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  let total = 0;
  let found = false;
  const queue = [...(children.get(process.pid) ?? [])];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    if (exclude.has(pid)) continue;
    found = true;
    total += stats.get(pid)!.cpuMs;
    queue.push(...(children.get(pid) ?? []));
  }
  return found ? total : null;
}

/** CPU ms one process has used so far, or null when it is gone or /proc is missing. */
export function cpuMsOf(pid: number): number | null {
  return readStat(pid)?.cpuMs ?? null;
}

/**
 * Busy CPU ms of the whole machine (all cores) so far. Compared with the processes of the
 * benchmark it shows how much CPU something else took during a run: on a shared machine that
 * is the first thing to rule out before trusting a ratio.
 */
export function machineBusyMs(): number | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    if (user === undefined || nice === undefined || system === undefined || irq === undefined || softirq === undefined)
      return null;
    return (user + nice + system + irq + softirq + (steal || 0)) * TICK_MS;
  } catch {
    return null;
  }
}
