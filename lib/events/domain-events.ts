import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { bucketsCollection, type BucketDoc, type ObjectDoc, type ObjectTypeDoc } from '../db/collections.js';
import type { MediaDoc } from '../store/media.js';
import type { Plan } from '../config/plan.js';
import { renderMedia, type ApiMedia } from '../render/media.js';
import { renderObject, type ApiObject } from '../render/objects.js';
import { renderObjectType, type ApiObjectType } from '../render/object-types.js';
import { bumpGeneration } from '../cache/bucket-generation.js';
import { BucketTypes, objectRenderContext } from '../render/objects.js';
import { readOptions } from '../db/service-db.js';
import type { EventType } from '../store/event-types.js';
import { BucketWebhooks } from '../webhooks/outbox.js';
import { eventDeliveries, recordEvent } from '../webhooks/outbox.js';
import { deliveriesCollection } from '../store/webhooks.js';
import { writeAlone, type BatchWrite } from '../db/write-batch.js';
import { feedWrite } from './feed-collection.js';

/** The event names are the webhook events' table (lib/store/event-types.ts), split by resource. */
export type DomainEventType = EventType;
export type ObjectEventType = Extract<EventType, `object.${string}`>;
export type ObjectTypeEventType = Extract<EventType, `object_type.${string}`>;
export type MediaEventType = Extract<EventType, `media.${string}`>;

/** What a mutation changed, as its stored document: the event renders it as the v3 API answers. */
export type Subject =
  | { type: ObjectEventType; doc: ObjectDoc }
  | { type: ObjectTypeEventType; doc: ObjectTypeDoc }
  | { type: MediaEventType; doc: MediaDoc };

/** One mutation, after its commit point. Plain JSON-like data: a pending-write marker can hold it. */
export interface DomainEvent {
  /** Stable per write (subject id, version time, type): a sink records each id once, so re-emitting is harmless. */
  id: string;
  type: DomainEventType;
  /** The Bucket's slug. */
  bucket: string;
  bucketId: BucketDoc['_id'];
  /** The Object type slug, for object.* (the Object's type) and object_type.* (the type itself). */
  objectType?: string;
  subjectId: string;
  /** The resource as the v3 API answers it (as it was just before, for deletes). */
  data: ApiObject | ApiObjectType | ApiMedia;
  /** The Bucket's webhook_generation when the write read it (see lib/webhooks/outbox.ts). */
  webhookGeneration?: number;
}

/** Where events go (the webhook outbox, a test's collector). It must be idempotent by event id. */
export type EventSink = (db: Db, event: DomainEvent) => Promise<void>;

/** The event id of a write: its subject, the version it wrote (modified_at) and what happened. */
export function eventId(type: DomainEventType, subjectId: string, version: Date): string {
  return `${subjectId}:${String(version.getTime())}:${type}`;
}

/**
 * The event seam of one app: every mutation ends in `finishWrite`, so adding an effect to every
 * write is one edit there, and consumers register as sinks. Sinks run in order, before the
 * mutation returns (so before the HTTP response); a sink that throws fails the request after its
 * commit point, and for Object writes the marker it leaves makes repair emit the event again.
 */
export class DomainEvents {
  private readonly sinks: EventSink[] = [];
  private readonly observers: EventSink[] = [];
  /** The Buckets' enabled webhooks by webhook generation, so a write does not read them again. */
  private readonly webhooks = new BucketWebhooks();

  constructor(
    private readonly config: Config,
    /** The Bucket's types by generation, shared with the app's reads and writes (lib/app-state.ts). */
    readonly types = new BucketTypes(),
    /**
     * Every change is offered to the Bucket's webhooks: the outbox queues one delivery per
     * matching webhook, keyed by event id, so an event emitted again queues nothing new. false
     * only to measure what webhooks cost a write (spec/bench).
     */
    private readonly offerToWebhooks = true,
  ) {}

  addSink(sink: EventSink): void {
    this.sinks.push(sink);
  }

  /**
   * Adds a consumer that hears of each event after the sinks, and of an Object write once it is
   * sent (an edit commits and finishes in one command where it can, with no sink between): it
   * cannot stop the write, and repair does not hand it the event again.
   */
  addObserver(observer: EventSink): void {
    this.observers.push(observer);
  }

  /** The event of `subject` in `bucket`, rendered now. */
  async describe(db: Db, bucket: BucketDoc, subject: Subject): Promise<DomainEvent> {
    const base = {
      type: subject.type,
      bucket: bucket.slug,
      bucketId: bucket._id,
      subjectId: subject.doc._id.toHexString(),
      webhookGeneration: bucket.webhook_generation ?? 0,
    };
    const id = eventId(subject.type, base.subjectId, subject.doc.modified_at);
    switch (subject.type) {
      case 'media.created':
      case 'media.edited':
      case 'media.deleted':
        return { ...base, id, data: renderMedia(subject.doc, this.config, bucket) };
      case 'object_type.created':
      case 'object_type.edited':
      case 'object_type.deleted':
        return { ...base, id, objectType: subject.doc.slug, data: renderObjectType(subject.doc) };
      default: {
        const ctx = await objectRenderContext(db, this.config, this.types, bucket);
        return { ...base, id, objectType: subject.doc.type, data: renderObject(subject.doc, ctx) };
      }
    }
  }

  /** Records `event` in the outbox and the change feed, then hands it to the other sinks. */
  async emit(db: Db, event: DomainEvent): Promise<void> {
    await Promise.all([
      this.offerToWebhooks ? recordEvent(db, outboxEventOf(event), this.webhooks) : undefined,
      writeAlone(this.feedWrite(db, event)),
    ]);
    await this.toSinks(db, event);
  }

  /**
   * The outbox's and the change feed's part of `emit` as writes, for a write that sends them with
   * its other follow-ups (lib/objects/write/version-write.ts), so the feed costs it no round trip; it
   * then calls `toSinks`.
   */
  async outboxWrites(db: Db, event: DomainEvent): Promise<BatchWrite[]> {
    const feed = this.feedWrite(db, event);
    if (!this.offerToWebhooks) return [feed];
    const deliveries = await eventDeliveries(db, outboxEventOf(event), this.webhooks);
    return [
      ...deliveries.map((document) => ({
        to: deliveriesCollection(db),
        model: { name: 'insertOne' as const, document },
        doneIfDuplicate: true,
      })),
      feed,
    ];
  }

  /** The change feed's document of `event` (lib/realtime/), kept once per event id. */
  private feedWrite(db: Db, event: DomainEvent): BatchWrite {
    return feedWrite(db, event, this.config.realtime.retentionMs);
  }

  /** Whether any sink was added besides the outbox (observers aside). */
  get hasSinks(): boolean {
    return this.sinks.length > 0;
  }

  /** Hands `event` to the sinks added besides the outbox, in order, then to the observers. */
  async toSinks(db: Db, event: DomainEvent): Promise<void> {
    for (const sink of this.sinks) await sink(db, event);
    await this.toObservers(db, event);
  }

  /** Hands `event` to the observers alone. */
  async toObservers(db: Db, event: DomainEvent): Promise<void> {
    for (const observer of this.observers) await observer(db, event);
  }
}

/** `event` as the webhook outbox records it. */
function outboxEventOf(event: DomainEvent) {
  return {
    id: event.id,
    bucket: { _id: event.bucketId, slug: event.bucket },
    type: event.type,
    ...(event.objectType === undefined ? {} : { objectType: event.objectType }),
    ...(event.webhookGeneration === undefined ? {} : { webhookGeneration: event.webhookGeneration }),
    data: event.data,
  };
}

/** What every mutation needs besides its own input. */
export interface EventDeps {
  db: Db;
  events: DomainEvents;
  /** The plan of Buckets that set no limit of their own (config PLAN_MAX_*); absent: unlimited. */
  plans?: Plan;
}

/**
 * The last steps of every mutation, after its commit point, in this order: bump the Bucket
 * generation (caches drop reads of the old state), then hand the events to the sinks. Object
 * writes carry their own follow-ups instead (lib/objects/write/version-write.ts).
 */
export async function finishWrite(deps: EventDeps, bucketId: BucketDoc['_id'], events: DomainEvent[]): Promise<void> {
  await bumpGeneration(deps.db, bucketId);
  for (const event of events) await deps.events.emit(deps.db, event);
}

/** `finishWrite` of a mutation of one subject, which notifies unless told not to. */
export async function finishChange(deps: EventDeps, bucket: BucketDoc, subject: Subject, notify = true): Promise<void> {
  await finishWrite(deps, bucket._id, notify ? [await deps.events.describe(deps.db, bucket, subject)] : []);
}

/** The Bucket an Object write outside a request (scheduler, repair) renders its event with. */
export async function bucketById(db: Db, id: BucketDoc['_id']): Promise<BucketDoc | null> {
  return bucketsCollection(db).findOne({ _id: id }, readOptions(db));
}
