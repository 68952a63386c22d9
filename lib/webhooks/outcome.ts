import type { Db } from 'mongodb';
import type { WebhookSettings } from '../config.js';
import {
  deliveriesCollection,
  MAX_KEPT_ATTEMPTS,
  webhooksCollection,
  type AttemptDoc,
  type DeliveryDoc,
  type DeliveryStatus,
  type WebhookDoc,
} from '../store/webhooks.js';
import { bumpWebhookGeneration } from './outbox.js';
import { PING } from '../store/event-types.js';
import { retryDelay } from './retry.js';

export interface Outcome {
  delivery: DeliveryDoc;
  webhook: WebhookDoc | null;
  ok: boolean;
  attempt: AttemptDoc;
  /** Fail now, whatever the retry schedule says. */
  final: boolean;
  now: Date;
  random: () => number;
}

const DAY_MS = 86_400_000;

/**
 * Logs an attempt and moves the delivery on: delivered, retried after the next wait of the
 * schedule, or failed once it is used up. Written only while the worker's claim stands; a worker
 * whose claim lapsed (and may have been taken over) changes nothing. Then the webhook's run of
 * failed deliveries: reset by a success, and at WEBHOOK_DISABLE_AFTER_FAILURES it is disabled.
 */
export async function recordOutcome(db: Db, settings: WebhookSettings, o: Outcome): Promise<void> {
  const tries = o.delivery.tries + 1;
  const delay = o.ok || o.final ? null : retryDelay(settings.retryScheduleMs, tries, o.random());
  const status: DeliveryStatus = o.ok ? 'delivered' : delay === null ? 'failed' : 'pending';
  const finished = status !== 'pending';
  const written = await deliveriesCollection(db).updateOne(
    { _id: o.delivery._id, 'claim.token': o.delivery.claim?.token },
    {
      $set: {
        status,
        tries,
        claim: null,
        next_attempt_at: delay === null ? null : new Date(o.now.getTime() + delay),
        finished_at: finished ? o.now : null,
        ...(finished && { expires_at: new Date(o.now.getTime() + settings.logDays * DAY_MS) }),
      },
      $inc: { attempt_count: 1 },
      $push: { attempts: { $each: [o.attempt], $slice: -MAX_KEPT_ATTEMPTS } },
    },
  );
  if (written.matchedCount === 0 || !o.webhook || o.delivery.type === PING) return;
  if (status === 'delivered' && o.webhook.consecutive_failures > 0) {
    await webhooksCollection(db).updateOne({ _id: o.webhook._id }, { $set: { consecutive_failures: 0 } });
  } else if (status === 'failed' && o.webhook.enabled) {
    await countFailure(db, settings, o.webhook._id, o.attempt, o.now);
  }
}

async function countFailure(
  db: Db,
  settings: WebhookSettings,
  webhookId: WebhookDoc['_id'],
  attempt: AttemptDoc,
  now: Date,
): Promise<void> {
  const webhooks = webhooksCollection(db);
  const after = await webhooks.findOneAndUpdate(
    { _id: webhookId },
    { $inc: { consecutive_failures: 1 } },
    { returnDocument: 'after' },
  );
  if (!after?.enabled || after.consecutive_failures < settings.disableAfterFailures) return;
  const reason =
    `disabled after ${after.consecutive_failures} consecutive failed deliveries ` +
    `(the last at ${now.toISOString()}: ${attempt.error ?? `HTTP ${attempt.status ?? 'no answer'}`})`;
  const disabled = await webhooks.updateOne(
    { _id: webhookId, enabled: true },
    { $set: { enabled: false, disabled_reason: reason, modified_at: now } },
  );
  if (disabled.matchedCount > 0) await bumpWebhookGeneration(db, after.bucket_id);
}
