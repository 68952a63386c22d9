import type { Db } from 'mongodb';
import type { WebhookSettings } from '../../lib/config.js';
import { DeliveryWorker, type WorkerOptions } from '../../lib/webhooks/worker.js';
import { sleep } from './engine-helpers.js';

/** Settings for tests: short waits, private addresses allowed (the receiver is on loopback). */
export function testWebhookSettings(overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  return {
    allowPrivate: true,
    retryScheduleMs: [20, 20, 20],
    timeoutMs: 2000,
    leaseMs: 5000,
    pollMs: 0,
    concurrency: 4,
    endpointConcurrency: 4,
    // Off unless a test is about the breaker: most tests make endpoints fail on purpose.
    pauseAfterFailures: 0,
    pauseMs: 60_000,
    disableAfterFailures: 20,
    logDays: 30,
    ...overrides,
  };
}

/** Runs the worker until `done` holds (retries fall due in between), failing after timeoutMs. */
export async function drainUntil(
  worker: DeliveryWorker,
  done: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await worker.drain();
    if (await done()) return;
    if (Date.now() > deadline) throw new Error(`webhook deliveries not done within ${timeoutMs} ms`);
    await sleep(10);
  }
}

export function testWorker(db: Db, overrides: Partial<WebhookSettings> = {}, opts: WorkerOptions = {}): DeliveryWorker {
  return new DeliveryWorker(db, testWebhookSettings(overrides), opts);
}
