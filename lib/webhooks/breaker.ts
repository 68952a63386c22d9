import type { Db } from 'mongodb';
import type { WebhookSettings } from '../config.js';
import { webhooksCollection, type WebhookDoc } from '../store/webhooks.js';

/**
 * A circuit breaker per webhook: an endpoint that failed `pauseAfterFailures` attempts in a row
 * is paused for `pauseMs`. Its deliveries stay due meanwhile, their attempts unspent (a pause is
 * not a failed attempt), so nothing is burned while it is down. Once the pause ends, one delivery
 * at a time probes it (`shareOf`); a failed probe pauses it again, a success closes the breaker
 * and the backlog flows. The state is on the webhook document, so every process sees it.
 */

/** How a due webhook is served in the next batch: not at all, one probe, or its full share. */
export type Share = 'paused' | 'probe' | 'full';

export function shareOf(webhook: WebhookDoc | undefined, settings: WebhookSettings, now: Date): Share {
  const breaker = webhook?.breaker;
  if (!breaker || settings.pauseAfterFailures <= 0 || breaker.failures < settings.pauseAfterFailures) return 'full';
  const until = breaker.open_until ?? null;
  return until !== null && until > now ? 'paused' : 'probe';
}

/** When a paused webhook's probe is due, or null while it is not paused. */
export function pausedUntil(webhook: WebhookDoc, now: Date): string | null {
  const until = webhook.breaker?.open_until ?? null;
  return until !== null && until > now ? until.toISOString() : null;
}

/**
 * Counts one attempt's result (not a delivery's: every attempt). Returns true when the webhook is
 * now paused. A success writes only when there was a run of failures to end.
 */
export async function noteAttempt(
  db: Db,
  settings: WebhookSettings,
  webhook: WebhookDoc,
  ok: boolean,
  now: Date,
): Promise<boolean> {
  if (settings.pauseAfterFailures <= 0) return false;
  const webhooks = webhooksCollection(db);
  if (ok) {
    if ((webhook.breaker?.failures ?? 0) > 0)
      await webhooks.updateOne({ _id: webhook._id }, { $set: { breaker: { failures: 0, open_until: null } } });
    return false;
  }
  const after = await webhooks.findOneAndUpdate(
    { _id: webhook._id },
    { $inc: { 'breaker.failures': 1 } },
    { returnDocument: 'after', projection: { breaker: 1 } },
  );
  if ((after?.breaker?.failures ?? 0) < settings.pauseAfterFailures) return false;
  await webhooks.updateOne(
    { _id: webhook._id },
    { $set: { 'breaker.open_until': new Date(now.getTime() + settings.pauseMs) } },
  );
  return true;
}
