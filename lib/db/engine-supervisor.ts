/**
 * Keeps an engine process running: when it exits without being asked to, it is started again on
 * the same port (so a connected MongoClient reconnects by itself) after a growing delay, and when
 * it keeps failing the supervisor gives up and says so, for the service to exit and be restarted
 * by its own supervisor.
 */

/** How one run of an engine process ended. */
export interface EngineExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The end of the process's error output, if any. */
  detail: string;
}

/** One running engine process. */
export interface EngineRun {
  readonly port: number;
  readonly pid: number | undefined;
  /** Settles once the process has exited, deliberately or not. */
  readonly exited: Promise<EngineExit>;
  /** Asks the process to end and waits until it has. */
  stop(): Promise<void>;
}

/** Starts an engine process; port null: any free port (the first start). Rejects if it cannot start. */
export type LaunchEngine = (port: number | null) => Promise<EngineRun>;

export interface SupervisorOptions {
  log?: (msg: string) => void;
  /** The engine died and could not be kept running. Called once; the supervisor stops trying. */
  onGiveUp?: (err: Error) => void;
  /** The engine runs again after a restart (same port). */
  onRestart?: (run: EngineRun) => void;
  /** Delay before the n-th restart attempt in a row; the last one repeats. */
  backoffMs?: readonly number[];
  /** Give up at this many failures (deaths and failed restarts) within failureWindowMs... */
  maxFailures?: number;
  failureWindowMs?: number;
  /** ...or at this many failed restarts in a row, however slow. */
  maxConsecutiveFailures?: number;
}

export const DEFAULT_BACKOFF_MS: readonly number[] = [500, 1000, 2000, 4000, 8000];

export function describeExit(exit: EngineExit): string {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
  return exit.detail ? `${how}: ${exit.detail}` : how;
}

export type SupervisorState = 'running' | 'restarting' | 'stopped' | 'failed';

export class EngineSupervisor {
  private run: EngineRun;
  private readonly port: number;
  private status: SupervisorState = 'running';
  private readonly failures: number[] = [];
  private consecutive = 0;
  private restarts = 0;
  private timer: NodeJS.Timeout | null = null;
  private launching: Promise<EngineRun> | null = null;
  private readonly log: (msg: string) => void;
  private readonly backoffMs: readonly number[];
  private readonly maxFailures: number;
  private readonly failureWindowMs: number;
  private readonly maxConsecutive: number;

  private constructor(
    private readonly launch: LaunchEngine,
    first: EngineRun,
    private readonly opts: SupervisorOptions,
  ) {
    this.run = first;
    this.port = first.port;
    this.log =
      opts.log ??
      ((msg) => {
        console.error(`[content-api] ${msg}`);
      });
    this.backoffMs = opts.backoffMs && opts.backoffMs.length > 0 ? opts.backoffMs : DEFAULT_BACKOFF_MS;
    this.maxFailures = opts.maxFailures ?? 5;
    this.failureWindowMs = opts.failureWindowMs ?? 60_000;
    this.maxConsecutive = opts.maxConsecutiveFailures ?? this.maxFailures;
    this.watch(first);
  }

  /** Starts the engine (a failure here is thrown, not retried) and watches it. */
  static async start(launch: LaunchEngine, opts: SupervisorOptions = {}, port: number | null = null) {
    const first = await launch(port);
    return new EngineSupervisor(launch, first, opts);
  }

  get state(): SupervisorState {
    return this.status;
  }

  /** The port every run listens on. */
  get enginePort(): number {
    return this.port;
  }

  /** The current process, while one runs. */
  get pid(): number | undefined {
    return this.status === 'running' ? this.run.pid : undefined;
  }

  /** Restarts so far (successful ones). */
  get restartCount(): number {
    return this.restarts;
  }

  /** Stops the engine for good: no restart follows, a pending one is cancelled. */
  async stop(): Promise<void> {
    if (this.status === 'stopped') return;
    this.status = 'stopped';
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const launching = this.launching;
    if (launching) {
      // It is stopped as soon as it has started (see attempt()); wait for that.
      await launching.then(
        (run) => run.exited,
        () => undefined,
      );
    }
    await this.run.stop();
  }

  private watch(run: EngineRun): void {
    void run.exited.then((exit) => {
      if (this.run !== run || this.status !== 'running') return;
      this.log(`database engine (pid ${String(run.pid)}, port ${this.port}) ${describeExit(exit)}`);
      this.failed(`the engine ${describeExit(exit)}`);
    });
  }

  /** Counts a failure, then either schedules the next attempt or gives up. */
  private failed(reason: string): void {
    const now = Date.now();
    this.failures.push(now);
    while (this.failures.length > 0 && (this.failures[0] ?? now) <= now - this.failureWindowMs) this.failures.shift();
    this.consecutive++;
    if (this.failures.length >= this.maxFailures || this.consecutive >= this.maxConsecutive) {
      this.status = 'failed';
      const err = new Error(
        `the database engine failed ${this.failures.length} times within ${Math.round(this.failureWindowMs / 1000)} s ` +
          `(${this.consecutive} in a row); last: ${reason}`,
      );
      this.log(`giving up on the database engine: ${err.message}`);
      this.opts.onGiveUp?.(err);
      return;
    }
    this.status = 'restarting';
    const index = Math.min(this.consecutive - 1, this.backoffMs.length - 1);
    const delay = this.backoffMs[index] ?? 0;
    this.log(`restarting the database engine on port ${this.port} in ${delay} ms`);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.attempt();
    }, delay);
  }

  /** A method, not a field read, so the compiler does not carry a narrowing across awaits. */
  private restarting(): boolean {
    return this.status === 'restarting';
  }

  private async attempt(): Promise<void> {
    if (this.status !== 'restarting') return;
    const started = Date.now();
    this.launching = this.launch(this.port);
    let run: EngineRun;
    try {
      run = await this.launching;
    } catch (err) {
      if (!this.restarting()) return;
      this.log(`the database engine did not restart: ${(err as Error).message}`);
      this.failed(`restart failed: ${(err as Error).message}`);
      return;
    } finally {
      this.launching = null;
    }
    if (!this.restarting()) {
      // stop() came while it was starting.
      await run.stop();
      return;
    }
    this.run = run;
    this.status = 'running';
    this.consecutive = 0;
    this.restarts++;
    this.log(`database engine restarted (pid ${String(run.pid)}, port ${run.port}) in ${Date.now() - started} ms`);
    this.watch(run);
    this.opts.onRestart?.(run);
  }
}
