export interface SemaphoreLimits {
  /** Work running at once. */
  concurrent: number;
  /** Callers allowed to wait for a turn; one more is refused at once. */
  waiting: number;
  /** Longest a caller waits for a turn before it is refused. */
  maxWaitMs: number;
}

/** A turn was not available: the queue was full, or the wait ran out. */
export class SaturatedError extends Error {
  constructor(readonly reason: 'queue full' | 'wait timed out') {
    super(`no capacity: ${reason}`);
  }
}

interface Waiter {
  grant: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Bounds how much of one kind of work runs at once, with a bounded, time-limited queue in front,
 * so a burst turns into quick refusals instead of an ever longer line. One per app instance.
 */
export class Semaphore {
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(private readonly limits: SemaphoreLimits) {}

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** `maxWaitMs`: this caller's longest wait, when less than the limits' (what is left of its own deadline). */
  async run<T>(work: () => Promise<T>, maxWaitMs = this.limits.maxWaitMs): Promise<T> {
    await this.acquire(Math.min(maxWaitMs, this.limits.maxWaitMs));
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(maxWaitMs: number): Promise<void> {
    if (this.running < this.limits.concurrent) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.queue.length >= this.limits.waiting) return Promise.reject(new SaturatedError('queue full'));
    if (maxWaitMs <= 0) return Promise.reject(new SaturatedError('wait timed out'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        // The turn passes straight from the releasing caller, so `running` never drops in between.
        grant: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.queue.splice(this.queue.indexOf(waiter), 1);
          reject(new SaturatedError('wait timed out'));
        }, maxWaitMs),
      };
      this.queue.push(waiter);
    });
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next.grant();
    else this.running -= 1;
  }
}
