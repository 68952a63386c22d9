// Writing the answer (sendJson) and the work that runs once it is sent (afterAnswer).
import type { Response, RequestHandler } from 'express';
import { prettyOf } from './request.js';
import { AsyncLocalStorage } from 'node:async_hooks';

/** The one way responses are written, so `pretty=true` applies to every JSON body, errors included. */
export function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body, null, prettyOf(res) ? 2 : undefined);
  res.status(status).type('application/json').send(text);
}

type Task = () => Promise<void>;

/** Where the current request puts off work until its answer is sent (see `afterAnswer`). */
const putOff = new AsyncLocalStorage<(task: Task) => void>();

/**
 * The work an app's requests put off until their answers were sent. Its `scope` is mounted just
 * before each Bucket route's handler (lib/routes/route-table.ts), so the store is the handler's
 * own async context; the tasks run once the response finishes or its connection closes,
 * whichever comes first (a task put off after that runs at once), and one that fails goes to
 * `failed`. `idle()` waits for all of it: a stopping server drains it before closing the
 * database, and tests read the database after it.
 */
export class PutOffWork {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly failed: (msg: string) => void) {}

  scope(): RequestHandler {
    return (_req, res, next) => {
      const waiting: Task[] = [];
      let answered = false;
      const answer = () => {
        answered = true;
        for (const task of waiting.splice(0)) this.start(task);
      };
      res.once('finish', answer);
      res.once('close', answer);
      const later = (task: Task) => {
        if (answered) this.start(task);
        else waiting.push(task);
      };
      putOff.run(later, next);
    };
  }

  /** Resolves once no put-off work is running, including work put off meanwhile. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private start(task: Task): void {
    const run = task()
      .catch((err: unknown) => {
        this.failed(`work put off until after the answer failed: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }
}

/**
 * Runs `task` after the current request's answer, when called inside one (PutOffWork's scope);
 * elsewhere (the scheduler, imports, repair) it runs now and is awaited. Only for work whose loss
 * is repaired anyway: a crash between the answer and the task leaves it to that repair.
 */
export async function afterAnswer(task: Task): Promise<void> {
  const later = putOff.getStore();
  if (later === undefined) return task();
  later(task);
}
