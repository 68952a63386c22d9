import type { DeliveryStatus } from '../query/read-params.js';
import type { Collection, Db, ObjectId } from 'mongodb';
import type { DeliveryType, EventType } from './event-types.js';

/** A Bucket's subscription to events. The secret is kept to sign with and never answered after creation. */
export interface WebhookDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  title: string;
  endpoint: string;
  events: EventType[];
  /** Object events (and Object type events) only of these types; null: all. */
  object_types: string[] | null;
  /** Comma-separated Object fields the payload carries (query-parameter grammar); null: the whole Object. */
  props: string | null;
  /** False: `data` carries only the resource's ids. */
  payload: boolean;
  /** Kept as pairs: header names may hold "." and "$", which field names must not. */
  headers: { name: string; value: string }[];
  enabled: boolean;
  /** Why the service disabled it; null when enabled or disabled by a client. */
  disabled_reason: string | null;
  /** Deliveries that ended `failed` since the last one that succeeded. */
  consecutive_failures: number;
  /** The endpoint's circuit breaker (lib/webhooks/breaker.ts); absent until an attempt fails. */
  breaker?: Breaker;
  /** `whsec_` + base64 of the HMAC key, the form Standard Webhooks libraries take. */
  secret: string;
  created_at: Date;
  modified_at: Date;
}

/** Failed attempts in a row, and while paused, until when. */
export interface Breaker {
  failures: number;
  open_until: Date | null;
}

export interface AttemptDoc {
  at: Date;
  /** The endpoint's HTTP status; null when no response came (network error, timeout, refused address). */
  status: number | null;
  error: string | null;
  duration_ms: number;
  /** The first 1 KB of the response body, as text. */
  response_body: string;
}

/** One event to one webhook: the outbox record the delivery worker claims, sends and logs. */
export interface DeliveryDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  webhook_id: ObjectId;
  /** The recorded event's id; unique together with webhook_id, so recording an event twice queues nothing new. */
  event_id: string;
  type: DeliveryType;
  /** The request body, fixed when the event was recorded: every attempt sends the same bytes. */
  body: string;
  status: DeliveryStatus;
  /** When a pending delivery is due; while claimed, when its claim lapses. Null once finished. */
  next_attempt_at: Date | null;
  /** The worker holding it; the token makes a lapsed holder's late result a no-op. */
  claim: { token: string; until: Date } | null;
  /** Attempts since it was recorded or last redelivered: picks the next backoff step. */
  tries: number;
  attempt_count: number;
  /** Newest last; only the latest MAX_KEPT_ATTEMPTS are kept. */
  attempts: AttemptDoc[];
  created_at: Date;
  finished_at: Date | null;
  /** Set when it finishes: the TTL index removes it then (WEBHOOK_LOG_DAYS). Pending deliveries never expire. */
  expires_at?: Date;
}

export const MAX_KEPT_ATTEMPTS = 50;

export function webhooksCollection(db: Db): Collection<WebhookDoc> {
  return db.collection<WebhookDoc>('webhooks');
}

export function deliveriesCollection(db: Db): Collection<DeliveryDoc> {
  return db.collection<DeliveryDoc>('webhook_deliveries');
}

/** Idempotent, like every index of the service (lib/db/indexes.ts). */
export async function ensureWebhookIndexes(db: Db): Promise<void> {
  await webhooksCollection(db).createIndex({ bucket_id: 1, enabled: 1 }, { name: 'bucket_enabled' }, undefined);
  const deliveries = deliveriesCollection(db);
  // The unique key that makes recordEvent idempotent for a caller-supplied event id.
  await deliveries.createIndex(
    { event_id: 1, webhook_id: 1 },
    { unique: true, name: 'event_webhook_unique' },
    undefined,
  );
  // What workers claim: pending and due, earliest first.
  await deliveries.createIndex({ status: 1, next_attempt_at: 1 }, { name: 'due' }, undefined);
  await deliveries.createIndex({ webhook_id: 1, _id: -1 }, { name: 'webhook_log' }, undefined);
  await deliveries.createIndex({ webhook_id: 1, status: 1, _id: -1 }, { name: 'webhook_status_log' }, undefined);
  // Expiry per document (expires_at), so a change of WEBHOOK_LOG_DAYS needs no index rebuild.
  await deliveries.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expiry' }, undefined);
}

export { DELIVERY_STATUSES, type DeliveryStatus } from '../query/read-params.js';
