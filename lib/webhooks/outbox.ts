// Events into the webhook outbox: the Bucket's webhooks, the deliveries an event owes, their payloads.
import { MongoBulkWriteError, ObjectId, type Db, type WriteError } from 'mongodb';
import { bucketsCollection, type BucketDoc } from '../db/collections.js';
import { deliveriesCollection, webhooksCollection, type DeliveryDoc, type WebhookDoc } from '../store/webhooks.js';
import { EVENTS, ID_FIELDS, type DeliveryType, type EventType } from '../store/event-types.js';
import { DUPLICATE_KEY } from '../errors/mongo-errors.js';
import { LRUCache } from 'lru-cache';
import { readOptions } from '../db/service-db.js';
import { parseProps, pickProps } from '../query/props.js';

/** A change to a Bucket's content, as its write path reports it. */
export interface DomainEvent {
  /**
   * Stable id of this change. Give one the write itself determines (e.g. derived from its
   * revision or crash-repair marker) whenever the event may be recorded again: recording the same
   * id twice queues nothing new. Absent: a fresh id, and every call is a new event.
   */
  id?: string;
  bucket: Pick<BucketDoc, '_id' | 'slug'>;
  type: EventType;
  /** Object events: the Object's type slug; Object type events: the type's own slug. Webhooks filtering by `object_types` match on it. */
  objectType?: string;
  /** The resource as the v3 API renders it (for a delete, as it was before). */
  data: Record<string, unknown>;
  /** When the change happened; default now. */
  at?: Date;
  /** The Bucket's webhook_generation as the write read it: the webhooks kept for it are used. Absent: read them. */
  webhookGeneration?: number;
}

const MAX_EVENT_ID_LENGTH = 200;

/** Whether the webhook wants this event. */
export function subscribes(webhook: WebhookDoc, event: Pick<DomainEvent, 'type' | 'objectType'>): boolean {
  if (!webhook.enabled || !webhook.events.includes(event.type)) return false;
  if (webhook.object_types === null || EVENTS[event.type] === 'media') return true;
  return event.objectType !== undefined && webhook.object_types.includes(event.objectType);
}

/** A pending delivery, due now. */
export function newDelivery(
  webhook: WebhookDoc,
  eventId: string,
  type: DeliveryType,
  body: string,
  now: Date,
): DeliveryDoc {
  return {
    _id: new ObjectId(),
    bucket_id: webhook.bucket_id,
    webhook_id: webhook._id,
    event_id: eventId,
    type,
    body,
    status: 'pending',
    next_attempt_at: now,
    claim: null,
    tries: 0,
    attempt_count: 0,
    attempts: [],
    created_at: now,
    finished_at: null,
  };
}

/** How many of the deliveries insertMany wrote, when it failed only on deliveries that already exist; else null. */
function insertedDespiteDuplicates(err: unknown, attempted: number): number | null {
  if (!(err instanceof MongoBulkWriteError)) return null;
  const reported = err.writeErrors;
  const errors: readonly WriteError[] = Array.isArray(reported) ? reported : [reported as WriteError];
  if (errors.length === 0 || errors.some((e) => e.code !== DUPLICATE_KEY)) return null;
  // Unordered: every document is either written or has its error (counted thus, not from the
  // reply's count, which some engines misreport).
  return attempted - errors.length;
}

/**
 * The deliveries that record `event` in the outbox (see `recordEvent`): none when no enabled
 * webhook of the Bucket subscribes to it. A write that sends its follow-ups together inserts these.
 */
export async function eventDeliveries(db: Db, event: DomainEvent, kept: BucketWebhooks): Promise<DeliveryDoc[]> {
  const id = event.id ?? new ObjectId().toHexString();
  if (id === '' || id.length > MAX_EVENT_ID_LENGTH) {
    throw new Error(`recordEvent: an event id must be 1 to ${MAX_EVENT_ID_LENGTH} characters`);
  }
  const webhooks = await kept.enabled(db, event.bucket._id, event.webhookGeneration);
  const now = new Date();
  const envelope = { id, type: event.type, created_at: event.at ?? now, bucket_slug: event.bucket.slug };
  return webhooks
    .filter((w) => subscribes(w, event))
    .map((w) => newDelivery(w, id, event.type, eventBody(envelope, event.data, w), now));
}

/**
 * Records an event in the outbox: one pending delivery per enabled webhook of the Bucket that
 * subscribes to it (its `events` and `object_types`), each body shaped for that webhook (`props`,
 * `payload: false`) now, so later edits of the resource do not change what was sent. The
 * delivery workers of every process send them (worker.ts). Returns the deliveries queued.
 *
 * Ordering contract for write paths (there are no transactions, so the change and its outbox
 * record are two writes):
 * 1. commit the change;
 * 2. `await recordEvent(...)`;
 * 3. only then send the response.
 * A crash between 1 and 2 leaves a change whose response never reached the client and that has
 * no delivery yet: crash repair of that change calls recordEvent again with the same `id`, which
 * is idempotent (unique on event id and webhook), so at worst a client that never got an answer
 * sees a delivery; never is a write acknowledged without its delivery. If recordEvent throws, the
 * request must fail (not answer success) for the same reason.
 */
export async function recordEvent(
  db: Db,
  event: DomainEvent,
  kept: BucketWebhooks = new BucketWebhooks(),
): Promise<number> {
  const deliveries = await eventDeliveries(db, event, kept);
  if (deliveries.length === 0) return 0;
  try {
    return (await deliveriesCollection(db).insertMany(deliveries, { ordered: false })).insertedCount;
  } catch (err) {
    // Recorded before: the deliveries that existed stay as they were, any missing ones are now in.
    const inserted = insertedDespiteDuplicates(err, deliveries.length);
    if (inserted === null) throw err;
    return inserted;
  }
}

/** How many Buckets' webhook lists one process keeps. */
const KEPT_BUCKETS = 1000;

/**
 * Every write that changes which deliveries an event gets (a webhook created, edited, given a new
 * secret, deleted or disabled after failures) bumps the Bucket's `webhook_generation` after its
 * own write. A list read after seeing generation g therefore holds every change bumped up to g,
 * so lists kept by generation are never stale for a writer that read the Bucket at g, in any
 * process.
 */
export async function bumpWebhookGeneration(db: Db, bucketId: ObjectId): Promise<void> {
  await bucketsCollection(db).updateOne({ _id: bucketId }, { $inc: { webhook_generation: 1 } });
}

/**
 * The enabled webhooks of each Bucket, kept per webhook generation: every content write offers
 * its event to the Bucket's webhooks, and without this each write would read them again although
 * they change a few times a day. One per app (lib/events/domain-events.ts).
 */
export class BucketWebhooks {
  private readonly kept = new LRUCache<string, { generation: number; webhooks: WebhookDoc[] }>({
    max: KEPT_BUCKETS,
  });

  /** `generation`: the Bucket's webhook_generation as the caller read it; absent, nothing is kept. */
  async enabled(db: Db, bucketId: ObjectId, generation?: number): Promise<WebhookDoc[]> {
    const key = bucketId.toHexString();
    const hit = this.kept.get(key);
    if (generation !== undefined && hit?.generation === generation) return hit.webhooks;
    const webhooks = await webhooksCollection(db)
      .find({ bucket_id: bucketId, enabled: true }, readOptions(db))
      .toArray();
    // A reader holding an older generation must not push out what a newer one stored.
    if (generation !== undefined && (hit === undefined || hit.generation < generation))
      this.kept.set(key, { generation, webhooks });
    return webhooks;
  }
}

/** A larger body is sent with ids only, as `payload: false` would, rather than stored and sent whole. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** An event as every webhook's delivery describes it. */
export interface EventEnvelope {
  id: string;
  type: DeliveryType;
  created_at: Date;
  bucket_slug: string;
}

function idsOnly(type: EventType, data: Record<string, unknown>): Record<string, unknown> {
  return pickProps(data, ID_FIELDS[EVENTS[type]]);
}

/** `data` as one webhook receives it: ids only without payload, its props of an Object otherwise. */
export function shapeData(
  type: EventType,
  data: Record<string, unknown>,
  webhook: Pick<WebhookDoc, 'payload' | 'props'>,
): Record<string, unknown> {
  if (!webhook.payload) return idsOnly(type, data);
  if (EVENTS[type] !== 'object' || webhook.props === null) return data;
  // Stored props were checked on save; a list that no longer parses falls back to the whole Object.
  return pickProps(
    data,
    parseProps(webhook.props, () => undefined),
  );
}

/** The request body: `{id, type, created_at, bucket: {slug}, data}`. */
export function renderBody(event: EventEnvelope, data: Record<string, unknown>): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    bucket: { slug: event.bucket_slug },
    data,
  });
}

/** The body one webhook is sent for an event, held under MAX_BODY_BYTES. */
export function eventBody(
  event: EventEnvelope & { type: EventType },
  data: Record<string, unknown>,
  webhook: Pick<WebhookDoc, 'payload' | 'props'>,
): string {
  const body = renderBody(event, shapeData(event.type, data, webhook));
  if (Buffer.byteLength(body) <= MAX_BODY_BYTES) return body;
  return renderBody(event, idsOnly(event.type, data));
}
