// The change feed's collection: its ids, the documents written beside each write, and what a read-key
// stream may see of them.
import type { Collection, Db, ObjectId } from 'mongodb';
import type { BatchWrite } from '../db/write-batch.js';
import { EVENTS, ID_FIELDS, type EventType } from '../store/event-types.js';
import { renderBody } from '../webhooks/outbox.js';
import { randomBytes } from 'node:crypto';
import { pickProps } from '../query/props.js';

/** One domain event as the change feed keeps it: one document per event, whatever the webhooks. */
export interface FeedDoc {
  /** The feed id (lib/events/feed-collection.ts): what clients resume from. */
  _id: string;
  /** The domain event's own id, stable per write: unique, so an event emitted again (repair) is kept once. */
  event_id: string;
  bucket_id: ObjectId;
  type: EventType;
  /** The Object type slug of object.* and object_type.* events, for the `types` filter. */
  object_type?: string;
  /** The message's data line, as a webhook delivery's body. */
  body: string;
  /**
   * The same for a read-key stream; null: a read-key stream does not get it. Where the read key
   * sees what the write key does (most events: a published Object's) it is the same string,
   * rendered once. Always set: a process of an earlier release reading the feed expects it.
   */
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

/** The feed's document of `event`, stamped `at`. */
export function feedDoc(event: FeedEvent, at: Date, retentionMs: number): FeedDoc {
  const envelope = { id: event.id, type: event.type, created_at: at, bucket_slug: event.bucket };
  const data = event.data as Record<string, unknown>;
  const forReadKey = readKeyData(event.type, data);
  const body = renderBody(envelope, data);
  return {
    _id: newFeedId(at.getTime()),
    event_id: event.id,
    bucket_id: event.bucketId,
    type: event.type,
    ...(event.objectType === undefined ? {} : { object_type: event.objectType }),
    body,
    read_body: forReadKey === data ? body : forReadKey === null ? null : renderBody(envelope, forReadKey),
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

/*
 * Change feed ids: `<ms>-<counter>-<process>`, fixed-width hexadecimal, so string order is time
 * order (the write's clock reading), then this process's counter, then the process.
 *
 * Why ids increase for a reader without transactions or a shared counter: each app process
 * stamps its events with its own clock when it builds the write, and the write becomes visible
 * a little later. A reader that handed out everything it sees could pass over a slower write
 * whose id is smaller than one already handed out (written by another process, or another
 * request of this one), and a client resuming after the larger id would never get it. So every
 * reader hands out only ids older than `now - settle` (its horizon, `horizonId`): a write that
 * becomes visible within the settle window of its stamp, and processes whose clocks differ by
 * less than it, are never passed over. The price is the settle window of delay; REALTIME_SETTLE_MS
 * sets it. Ids of one millisecond from two processes order by counter and process: arbitrary,
 * but the same for every reader, which is all resuming needs.
 */

const TIME_DIGITS = 12;
const COUNTER_DIGITS = 8;
const PROCESS_DIGITS = 10;
const FEED_ID = new RegExp(`^[0-9a-f]{${TIME_DIGITS}}-[0-9a-f]{${COUNTER_DIGITS}}-[0-9a-f]{${PROCESS_DIGITS}}$`);

const thisProcess = randomBytes(PROCESS_DIGITS / 2).toString('hex');
let counter = 0;

function hex(n: number, digits: number): string {
  return n.toString(16).padStart(digits, '0');
}

/** A new id stamped `at`. */
export function newFeedId(at: number): string {
  counter = (counter + 1) % 16 ** COUNTER_DIGITS;
  return `${hex(at, TIME_DIGITS)}-${hex(counter, COUNTER_DIGITS)}-${thisProcess}`;
}

/** Sorts before every id stamped at `at` or later, after every earlier one. */
export function horizonId(at: number): string {
  return hex(Math.max(0, at), TIME_DIGITS);
}

/** The time an id was stamped, or null for text that is no feed id. */
export function feedIdTime(id: string): number | null {
  if (!FEED_ID.test(id)) return null;
  return parseInt(id.slice(0, TIME_DIGITS), 16);
}

/**
 * What a read-key stream gets of an event's resource, decided when the event is written: the
 * read key reads published Objects only, so an event about a draft (a new draft, a draft saved
 * over a live Object, a draft deleted) is not sent to it at all, and an unpublish (the Object
 * is a draft now) carries only its ids. Object types and media are the read key's to read.
 * null: not sent. `data` itself where the read key sees it whole, which feedDoc relies on.
 */
export function readKeyData(type: EventType, data: Record<string, unknown>): Record<string, unknown> | null {
  if (EVENTS[type] !== 'object') return data;
  if (type === 'object.unpublished') return pickProps(data, ID_FIELDS.object);
  return data.status === 'published' ? data : null;
}
