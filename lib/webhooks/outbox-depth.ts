import type { Db } from 'mongodb';
import { deliveriesCollection } from '../store/webhooks.js';

export interface OutboxDepth {
  /** Pending deliveries whose time has come: what the workers have yet to send. */
  due: number;
  /** Pending deliveries waiting for a retry (or held by a worker sending them now). */
  waiting: number;
}

/** How much of the webhook outbox is unsent, over every Bucket; both counts walk the `due` index. */
export async function outboxDepth(db: Db, now: Date, maxTimeMS: number): Promise<OutboxDepth> {
  const deliveries = deliveriesCollection(db);
  const [due, waiting] = await Promise.all([
    deliveries.countDocuments({ status: 'pending', next_attempt_at: { $lte: now } }, { maxTimeMS }),
    deliveries.countDocuments({ status: 'pending', next_attempt_at: { $gt: now } }, { maxTimeMS }),
  ]);
  return { due, waiting };
}
