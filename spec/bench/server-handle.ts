import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import type { ChildCommand, ChildMessage, ServerMode } from './server-child.js';

export interface ServerHandle {
  mode: ServerMode;
  pid: number;
  baseUrl: string;
  resetPeak(): Promise<void>;
  /** Highest RSS sampled since the last resetPeak, in bytes. */
  peakRss(): Promise<number>;
  /** The kernel's high-water mark over the whole process life, in bytes (null off Linux). */
  vmHwm(): number | null;
  stop(): Promise<void>;
  /** Starts a CPU profile of the server (node:inspector), for the part of a run that matters. */
  startProfile(): Promise<void>;
  /** Stops it and writes it into `dir` as a .cpuprofile file; its path. */
  stopProfile(dir: string): Promise<string>;
}

function nextMessage<T extends ChildMessage['type']>(
  child: ChildProcess,
  type: T,
  timeoutMs = 30_000,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      done(new Error(`server child sent no "${type}" within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (m: ChildMessage) => {
      if (m.type === type) done(null, m as Extract<ChildMessage, { type: T }>);
    };
    const onExit = (code: number | null) => {
      done(new Error(`server child exited with code ${code} before "${type}"`));
    };
    function done(err: Error | null, m?: Extract<ChildMessage, { type: T }>) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(m!);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

export interface StartOptions {
  /** More environment for the child (BENCH_BUCKET_SLUG). */
  env?: Record<string, string>;
  /**
   * The compiled server-child.js to fork; by default this build's. Another build's child (an
   * older commit's dist/) runs that build's service beside this one, for before/after in one run.
   */
  script?: URL;
  /** Lines of the child's output to leave out (Parse Server prints a notice per default option). */
  dropLines?: RegExp;
}

/** Copies a child's output to ours line by line, without the lines `drop` matches. */
function forward(from: NodeJS.ReadableStream | null, to: NodeJS.WritableStream, drop: RegExp): void {
  if (!from) return;
  readline.createInterface({ input: from }).on('line', (line) => {
    if (!drop.test(line)) to.write(`${line}\n`);
  });
}

/**
 * Forks a server child and waits until it listens. BENCH_CPU_PROF=<dir> profiles the child
 * (written when it stops), which is how time spent per request was investigated.
 */
export async function startServer(
  mode: ServerMode,
  uri: string,
  dbName: string,
  opts: StartOptions = {},
): Promise<ServerHandle> {
  const execArgv = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = fork(opts.script ?? new URL('./server-child.js', import.meta.url), [mode], {
    env: { ...process.env, ...opts.env, BENCH_MONGODB_URI: uri, BENCH_DB_NAME: dbName },
    execArgv,
    stdio: opts.dropLines ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (opts.dropLines) {
    forward(child.stdout, process.stdout, opts.dropLines);
    forward(child.stderr, process.stderr, opts.dropLines);
  }
  const { port } = await nextMessage(child, 'ready');
  const send = (c: ChildCommand) => child.send(c);
  return {
    mode,
    pid: child.pid!,
    baseUrl: `http://127.0.0.1:${port}`,
    async resetPeak() {
      const reply = nextMessage(child, 'peak-reset');
      send({ cmd: 'reset-peak' });
      await reply;
    },
    async peakRss() {
      const reply = nextMessage(child, 'peak');
      send({ cmd: 'peak' });
      return (await reply).rss;
    },
    async startProfile() {
      const reply = nextMessage(child, 'profiling');
      send({ cmd: 'profile-start' });
      await reply;
    },
    async stopProfile(dir: string) {
      const reply = nextMessage(child, 'profile');
      send({ cmd: 'profile-stop', dir });
      return (await reply).file;
    },
    vmHwm() {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        return m ? Number(m[1]) * 1024 : null;
      } catch {
        return null;
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) =>
        child.once('exit', () => {
          resolve();
        }),
      );
      send({ cmd: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
