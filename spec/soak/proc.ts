import fs from 'node:fs';

/** Resident set size of a process in bytes, from /proc; null when it is gone (or off Linux). */
export function rssOf(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function parentOf(pid: number): number | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces or parentheses; the fields after its last ")" do not.
    return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * The embedded engine the server started: its child running mongo-java-server (or a mongod).
 * The Java engine is exec'ed by a shell, so the child's pid is the JVM's.
 */
export function findEngine(serverPid: number): number | null {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (parentOf(pid) !== serverPid) continue;
    const cmd = commandLine(pid);
    if (cmd.includes('EmbeddedMongo') || /\bmongod\b/.test(cmd)) return pid;
  }
  return null;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
