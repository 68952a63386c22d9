import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const distRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER_JS = path.join(distRoot, 'bin', 'server.js');
const BUCKETCTL_JS = path.join(distRoot, 'bin', 'bucketctl.js');
const PROBE_URL = new URL('./probe.js', import.meta.url).href;

export interface ServiceEnv {
  dataDir: string;
  port: number;
  probeFile: string;
  logFile: string;
}

/** A fresh temporary DATA_DIR, probe and log file, and a free port, for one server's life. */
export async function tempServiceEnv(prefix: string): Promise<ServiceEnv> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return {
    dataDir: path.join(tmp, 'data'),
    port: await freePort(),
    probeFile: path.join(tmp, 'probe.jsonl'),
    logFile: path.join(tmp, 'server.log'),
  };
}

/** The database the server uses (its default unless DB_NAME says otherwise). */
export const DB_NAME = process.env.DB_NAME || 'content_api';

/** The env of every process the soak starts: the embedded engine of DATA_DIR, never the shell's MONGODB_URI. */
function serviceEnv(e: ServiceEnv): NodeJS.ProcessEnv {
  return {
    // Workers at full speed would spend the per-minute budgets; the soak tests durability, not limits.
    RATE_LIMIT_READS_PER_MINUTE: '0',
    RATE_LIMIT_WRITES_PER_MINUTE: '0',
    ...process.env,
    MONGODB_URI: '',
    DATA_DIR: e.dataDir,
    PORT: String(e.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${e.port}`,
    SOAK_PROBE_FILE: e.probeFile,
    // The webhook receiver listens on loopback, which deliveries refuse unless allowed.
    WEBHOOK_ALLOW_PRIVATE: 'true',
  };
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => {
      resolve(false);
    });
    srv.listen(port, '127.0.0.1', () => {
      srv.close(() => {
        resolve(true);
      });
    });
  });
}

/**
 * A free port below Linux's ephemeral range (32768 and up): a port the OS handed out and took
 * back could be handed to the engine (which binds port 0) before the server listens on it.
 */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port found between 20000 and 32000');
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

/** Every server still running, so a soak that fails half-way leaves no server (and engine) behind. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** One life of `node dist/bin/server.js`, with the probe preloaded and its output appended to the log. */
export class ServiceProcess {
  private exitCode: number | null | undefined = undefined;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    running.add(child);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        running.delete(child);
        this.exitCode = code ?? (signal ? -1 : null);
        resolve();
      });
    });
  }

  static spawn(e: ServiceEnv): ServiceProcess {
    const log = fs.openSync(e.logFile, 'a');
    const child = spawn(process.execPath, ['--import', PROBE_URL, SERVER_JS], {
      env: serviceEnv(e),
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    return new ServiceProcess(child, `http://127.0.0.1:${e.port}`);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** Resolves once /v3/status answers 200; rejects if the process exits first or the time runs out. */
  async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`the server exited (code ${String(this.exitCode)}) before it was ready`);
      try {
        const res = await fetch(`${this.baseUrl}/v3/status`, { signal: AbortSignal.timeout(2000) });
        await res.arrayBuffer();
        if (res.status === 200) return;
      } catch {
        // Not listening yet.
      }
      await sleep(200);
    }
    throw new Error(`the server was not ready within ${timeoutMs / 1000} s`);
  }

  /** kill -9: no shutdown code runs. */
  async killHard(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM, the way a process manager stops it; SIGKILL if it takes longer than timeoutMs. */
  async stop(timeoutMs = 30_000): Promise<{ graceful: boolean }> {
    if (!this.running) return { graceful: true };
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
    return { graceful: this.exitCode === 0 };
  }
}

/**
 * Starts the server and waits until it serves, starting it again (like systemd's Restart=always)
 * when a life ends before that. Returns the running process and how many lives it took.
 */
export async function startService(
  e: ServiceEnv,
  opts: { timeoutMs: number; attempts: number },
): Promise<{ service: ServiceProcess; attempts: number; ms: number }> {
  const t0 = Date.now();
  let lastError: Error = new Error('no attempt made');
  for (let attempt = 1; attempt <= opts.attempts; attempt++) {
    const service = ServiceProcess.spawn(e);
    try {
      await service.waitReady(opts.timeoutMs);
      return { service, attempts: attempt, ms: Date.now() - t0 };
    } catch (err) {
      lastError = err as Error;
      await service.killHard();
      await sleep(1000);
    }
  }
  throw new Error(`the server did not start in ${opts.attempts} attempts: ${lastError.message} (see ${e.logFile})`);
}

/** Runs bucketctl on the server's DATA_DIR (it joins the running engine) and returns its stdout. */
export async function bucketctl(e: ServiceEnv, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [BUCKETCTL_JS, ...args], {
    env: serviceEnv(e),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bucketctl ${args.join(' ')} exited with ${String(code)}: ${err.trim()}`);
  return out;
}

/** The engine address the server advertises in DATA_DIR/engine.json. */
export function engineUri(dataDir: string): string {
  const advert = JSON.parse(fs.readFileSync(path.join(dataDir, 'engine.json'), 'utf8')) as { uri: string };
  return advert.uri;
}
