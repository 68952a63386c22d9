import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensurePrivateFile, prepareDataDir } from './data-dir.js';
import { launcherArgs } from './engine-java-build.js';
import type { Engine, EngineSupervision } from './engine-types.js';
import { EngineSupervisor, type EngineExit, type EngineRun } from './engine-supervisor.js';

const READY_TIMEOUT_MS = 120_000;
/** How long a restarted engine waits for its old port to be free before it fails. */
const BIND_WAIT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;
const DATA_FILE = 'content-api.mv.db';

/** The last few lines of a process's error output, kept to say why it died. */
class Tail {
  private text = '';
  add(chunk: Buffer): void {
    this.text = (this.text + chunk.toString()).slice(-4000);
  }
  lines(n = 3): string {
    return this.text.trim().split('\n').slice(-n).join(' ').trim();
  }
}

/**
 * Starts one JVM and waits for its "READY <port>". Files it creates are private (umask 077), and
 * it ends when its standard input closes: stop() closes it, and so does the death of this process.
 */
function launchJava(baseArgs: string[], port: number | null): Promise<EngineRun> {
  const args = [...baseArgs];
  if (port !== null) args.push(`--port=${port}`, `--bind-wait-ms=${BIND_WAIT_MS}`);
  const child =
    process.platform === 'win32'
      ? spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] })
      : // exec keeps the pid: it is the JVM's.
        spawn('/bin/sh', ['-c', 'umask 077 && exec "$@"', 'sh', 'java', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const tail = new Tail();
  child.stderr.on('data', (chunk: Buffer) => {
    tail.add(chunk);
  });
  // A JVM that died early closes the pipe: writing to it (stop) must not throw.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<EngineExit>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve({ code, signal, detail: tail.lines() });
    });
    child.once('error', (err) => {
      resolve({ code: null, signal: null, detail: err.message });
    });
  });
  let done = false;
  const stop = async (): Promise<void> => {
    if (!done) {
      done = true;
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await exited;
  };
  return new Promise<EngineRun>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      reject(new Error(`mongo-java-server did not start within ${READY_TIMEOUT_MS / 1000} s`));
      child.kill('SIGKILL');
    }, READY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\d+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({ port: Number(m[1]), pid: child.pid, exited, stop });
    };
    child.stdout.on('data', onData);
    void exited.then((exit) => {
      clearTimeout(timer);
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
      reject(new Error(`mongo-java-server ${how}${exit.detail ? ': ' + exit.detail : ''}`));
    });
  });
}

/** The embedded engine: the port stays the same across restarts, the process does not. */
export interface JavaEngine extends Engine {
  readonly port: number;
  /** The JVM's process id while one runs (undefined during a restart). */
  readonly pid: number | undefined;
  readonly supervisor: EngineSupervisor;
}

export interface JavaEngineOptions {
  persistent: boolean;
  dataDir: string;
  /** Listen on this port instead of a free one. */
  port?: number;
  /** `-Xmx` of the JVM; null: its default. */
  maxHeap?: string | null;
  supervision?: EngineSupervision;
}

/**
 * mongo-java-server as a child JVM: the memory backend for tests, the H2 backend (one file
 * under dataDir) for data that survives restarts. If the JVM dies, it is started again on the
 * same port and data (see EngineSupervisor); with the memory backend the data is lost.
 */
export async function startJavaEngine(opts: JavaEngineOptions): Promise<JavaEngine> {
  // Without a limit the JVM grows its heap towards a quarter of the RAM before it collects in earnest.
  const heap = opts.maxHeap ? [`-Xmx${opts.maxHeap}`] : [];
  const args = [...heap, ...launcherArgs()];
  if (opts.persistent) {
    prepareDataDir(opts.dataDir);
    const file = path.join(opts.dataDir, DATA_FILE);
    ensurePrivateFile(file);
    args.push('h2', file);
  } else {
    args.push('memory');
  }
  const supervision = opts.supervision ?? {};
  const supervisor = await EngineSupervisor.start(
    (port) => launchJava(args, port),
    {
      ...(supervision.log ? { log: supervision.log } : {}),
      ...(supervision.onGiveUp ? { onGiveUp: supervision.onGiveUp } : {}),
      onRestart: () => {
        supervision.onRestart?.();
      },
    },
    opts.port ?? null,
  );
  const port = supervisor.enginePort;
  return {
    name: `mongo-java-server 1.47 (${opts.persistent ? 'H2 backend, data in ' + opts.dataDir : 'memory backend'})`,
    uri: `mongodb://127.0.0.1:${port}/`,
    port,
    get pid() {
      return supervisor.pid;
    },
    supervisor,
    stop: () => supervisor.stop(),
  };
}
