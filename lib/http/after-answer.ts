import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestHandler } from 'express';

type Task = () => Promise<void>;

/** The work a request put off until its answer is sent (see `afterAnswer`). */
const putOff = new AsyncLocalStorage<(task: Task) => void>();

/**
 * Gives the route's handler a place to put off work until its answer has been handed to the
 * client: the tasks run once the response finishes or its connection closes, whichever comes
 * first (a task put off after that runs at once); one that fails goes to `failed`. Mounted just
 * before each Bucket route's handler (lib/routes/route-table.ts), so the store is the handler's
 * own async context.
 */
export function answerFirst(failed: (msg: string) => void): RequestHandler {
  return (_req, res, next) => {
    const waiting: Task[] = [];
    let answered = false;
    const start = (task: Task) => {
      task().catch((err: unknown) => {
        failed(`work put off until after the answer failed: ${err instanceof Error ? err.message : String(err)}`);
      });
    };
    const answer = () => {
      answered = true;
      for (const task of waiting.splice(0)) start(task);
    };
    res.once('finish', answer);
    res.once('close', answer);
    const later = (task: Task) => {
      if (answered) start(task);
      else waiting.push(task);
    };
    putOff.run(later, next);
  };
}

/**
 * Runs `task` after the current request's answer, when called inside one (`answerFirst`);
 * elsewhere (the scheduler, imports, repair) it runs now and is awaited. Only for work whose loss
 * is repaired anyway: a crash between the answer and the task leaves it to that repair.
 */
export async function afterAnswer(task: Task): Promise<void> {
  const later = putOff.getStore();
  if (later === undefined) return task();
  later(task);
}
