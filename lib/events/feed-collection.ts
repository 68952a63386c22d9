import type { Collection, Db, ObjectId } from 'mongodb';
import type { BatchWrite } from '../db/write-batch.js';
import type { EventType } from '../store/event-types.js';
import { renderBody } from '../webhooks/payload.js';
import { newFeedId } from './feed-id.js';
import { readKeyData } from './feed-read-view.js';

/** One domain event as the change feed keeps it: one document per event, whatever the webhooks. */
export interface FeedDoc {
  /** The feed id (lib/events/feed-id.ts): what clients resume from. */
  _id: string;
  /** The domain event's own id, stable per write: unique, so an event emitted again (repair) is kept once. */
  event_id: string;
  bucket_id: ObjectId;
  type: EventType;
  /** The Object type slug of object.* and object_type.* events, for the `types` filter. */
  object_type?: string;
  /** The message's data line, as a webhook delivery's body. */
  body: string;
  /** The same for a read-key stream; null: a read-key stream does not get it (feed-read-view.ts). */
  read_body: string | null;
  /** Removed by the TTL index then (REALTIME_RETENTION). */
  expires_at: Date;
}

/** What the feed needs of a domain event (lib/events/domain-events.ts passes its own). */
export interface FeedEvent {
  id: string;
  type: EventType;
  bucket: string;
  bucketId: ObjectId;
  objectType?: string;
  data: object;
}

export function feedCollection(db: Db): Collection<FeedDoc> {
  return db.collection<FeedDoc>('change_events');
}

/** Idempotent, like every index of the service (lib/db/indexes.ts). */
export async function ensureFeedIndexes(db: Db): Promise<void> {
  const feed = feedCollection(db);
  await feed.createIndex({ event_id: 1 }, { unique: true, name: 'event_unique' }, undefined);
  // A stream's backlog: one Bucket's events after an id, in order.
  await feed.createIndex({ bucket_id: 1, _id: 1 }, { name: 'bucket_feed' }, undefined);
  // Expiry per document, so a change of REALTIME_RETENTION needs no index rebuild.
  await feed.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expiry' }, undefined);
}

/** The feed's document of `event`, stamped `at` (lib/events/feed-id.ts). */
export function feedDoc(event: FeedEvent, at: Date, retentionMs: number): FeedDoc {
  const envelope = { id: event.id, type: event.type, created_at: at, bucket_slug: event.bucket };
  const data = event.data as Record<string, unknown>;
  const forReadKey = readKeyData(event.type, data);
  return {
    _id: newFeedId(at.getTime()),
    event_id: event.id,
    bucket_id: event.bucketId,
    type: event.type,
    ...(event.objectType === undefined ? {} : { object_type: event.objectType }),
    body: renderBody(envelope, data),
    read_body: forReadKey === null ? null : renderBody(envelope, forReadKey),
    expires_at: new Date(at.getTime() + retentionMs),
  };
}

/**
 * The insert of `event`'s feed document, for a write that sends it with its other follow-ups;
 * a duplicate event id means it was kept before (a repair emitting again): done.
 */
export function feedWrite(db: Db, event: FeedEvent, retentionMs: number): BatchWrite {
  return {
    to: feedCollection(db),
    model: { name: 'insertOne', document: feedDoc(event, new Date(), retentionMs) },
    doneIfDuplicate: true,
  };
}
