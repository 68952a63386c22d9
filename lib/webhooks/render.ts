import type { AttemptDoc, DeliveryDoc, WebhookDoc } from '../store/webhooks.js';
import { maskedHeaders } from './header-mask.js';
import { pausedUntil } from './breaker.js';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** A webhook as answered (schemas/Webhook.json); the secret only when it was just made, header values never. */
export function renderWebhook(doc: WebhookDoc, withSecret = false): Record<string, unknown> {
  return {
    id: doc._id.toHexString(),
    title: doc.title,
    endpoint: doc.endpoint,
    events: doc.events,
    object_types: doc.object_types,
    props: doc.props,
    payload: doc.payload,
    headers: maskedHeaders(doc.headers),
    enabled: doc.enabled,
    disabled_reason: doc.disabled_reason,
    consecutive_failures: doc.consecutive_failures,
    paused_until: pausedUntil(doc, new Date()),
    created_at: doc.created_at.toISOString(),
    modified_at: doc.modified_at.toISOString(),
    ...(withSecret && { secret: doc.secret }),
  };
}

function renderAttempt(a: AttemptDoc): Record<string, unknown> {
  return {
    at: a.at.toISOString(),
    status: a.status,
    error: a.error,
    duration_ms: a.duration_ms,
    response_body: a.response_body,
  };
}

/**
 * A delivery as answered (schemas/WebhookDelivery.json). In lists, its latest attempt only; on
 * its own, every attempt and the body sent.
 */
export function renderDelivery(doc: DeliveryDoc, full: boolean): Record<string, unknown> {
  const last = doc.attempts.at(-1);
  return {
    id: doc._id.toHexString(),
    webhook_id: doc.webhook_id.toHexString(),
    event_id: doc.event_id,
    type: doc.type,
    status: doc.status,
    attempt_count: doc.attempt_count,
    next_attempt_at: doc.status === 'pending' ? iso(doc.next_attempt_at) : null,
    created_at: doc.created_at.toISOString(),
    finished_at: iso(doc.finished_at),
    ...(last && { last_attempt: renderAttempt(last) }),
    ...(full && { attempts: doc.attempts.map(renderAttempt), payload: JSON.parse(doc.body) as unknown }),
  };
}
