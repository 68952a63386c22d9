// Writing the answer (sendJson) and the work that runs once it is sent (afterAnswer).
import type { Response, RequestHandler } from 'express';
import { prettyOf } from './request.js';

/** The one way responses are written, so `pretty=true` applies to every JSON body, errors included. */
export function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body, null, prettyOf(res) ? 2 : undefined);
  res.status(status).type('application/json').send(text);
}

type Task = () => Promise<void>;

/**
 * What a write made for a request knows of that request, handed to it with its dependencies
 * (never through async context: an AsyncLocalStorage makes Node 20 track every promise of the
 * process, about 2.6% of an edit's CPU): the account it acts for (null with a Bucket key), and
 * where it puts off work until the answer is sent.
 */
export interface WriteRequest {
  actor: string | null;
  later: (task: Task) => void;
}

/** What a write made for a request needs besides its own dependencies; null outside a request (the scheduler, imports, repair). */
export interface ForRequest {
  request: WriteRequest | null;
}

const LATER = Symbol('put off until answered');

const laterSlot = (res: Response) => res.locals as { [LATER]?: WriteRequest['later'] };

/** Where the request of `res` puts off work (PutOffWork's scope); undefined before the scope ran. */
export function laterOf(res: Response): WriteRequest['later'] | undefined {
  return laterSlot(res)[LATER];
}

/**
 * The work an app's requests put off until their answers were sent. Its `scope` is mounted just
 * before each Bucket route's handler (lib/registry/mount.ts) and keeps the request's queue on its
 * response (laterOf), which the route hands to its writes (WriteRequest); the tasks run once the response finishes or its connection closes,
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
      laterSlot(res)[LATER] = later;
      next();
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
 * Runs `task` after the answer of the request a write was made for; without one (the scheduler,
 * imports, repair) it runs now and is awaited. Only for work whose loss is repaired anyway: a
 * crash between the answer and the task leaves it to that repair.
 */
export async function afterAnswer(request: WriteRequest | null, task: Task): Promise<void> {
  if (request === null) return task();
  request.later(task);
}
