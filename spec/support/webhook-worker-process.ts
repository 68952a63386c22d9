import { fork, type ChildProcess } from 'node:child_process';
import type { WorkerChildCommand, WorkerChildMessage } from './webhook-worker-child.js';

/** A delivery worker running in a child process (see webhook-worker-child.ts). */
export class WorkerProcess {
  private constructor(private readonly child: ChildProcess) {}

  static async start(uri: string, dbName: string, env: Record<string, string>): Promise<WorkerProcess> {
    const child = fork(new URL('./webhook-worker-child.js', import.meta.url), [], {
      env: {
        ...process.env,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        ...env,
        CHILD_MONGODB_URI: uri,
        CHILD_DB_NAME: dbName,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const handle = new WorkerProcess(child);
    await handle.next('ready');
    return handle;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  private next<T extends WorkerChildMessage['type']>(type: T): Promise<Extract<WorkerChildMessage, { type: T }>> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: WorkerChildMessage) => {
        if (m.type !== type) return;
        this.child.off('exit', onExit);
        this.child.off('message', onMessage);
        resolve(m as Extract<WorkerChildMessage, { type: T }>);
      };
      const onExit = (code: number | null) => {
        this.child.off('message', onMessage);
        reject(new Error(`worker process exited (${code}) before "${type}"`));
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
    });
  }

  async attempted(): Promise<number> {
    const reply = this.next('attempted');
    this.child.send({ cmd: 'attempted' } satisfies WorkerChildCommand);
    return (await reply).count;
  }

  /** Ends the process: SIGKILL (no clean-up at all) or a clean stop. */
  async end(how: 'kill' | 'stop'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) =>
      this.child.once('exit', () => {
        resolve();
      }),
    );
    if (how === 'kill') this.child.kill('SIGKILL');
    else this.child.send({ cmd: 'stop' } satisfies WorkerChildCommand);
    await exited;
  }
}
