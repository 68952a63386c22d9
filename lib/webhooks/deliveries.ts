import { ObjectId, type Db, type Filter } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { HttpError } from '../errors/http-errors.js';
import { notFound } from '../errors/not-found.js';
import { objectIdFromHex } from '../util/values.js';
import { deliveriesCollection, type DeliveryDoc, type DeliveryStatus, type WebhookDoc } from '../store/webhooks.js';
import { PING } from '../store/event-types.js';
import { newDelivery } from './outbox.js';
import { renderBody } from './outbox.js';

export interface DeliveryPage {
  status: DeliveryStatus | undefined;
  limit: number;
  /** Id of the previous page's last delivery. */
  after: string | undefined;
}

/** What a list shows of each delivery: not its body, and of its attempts the latest. */
const LIST_PROJECTION = {
  ...Object.fromEntries(
    ['webhook_id', 'event_id', 'type', 'status', 'attempt_count', 'next_attempt_at', 'created_at', 'finished_at'].map(
      (f) => [f, 1],
    ),
  ),
  attempts: { $slice: -1 },
};

/** A webhook's deliveries, newest first, without their attempts and bodies (those are per delivery). */
export async function listDeliveries(
  db: Db,
  webhook: WebhookDoc,
  page: DeliveryPage,
): Promise<{ docs: DeliveryDoc[]; total: number }> {
  const filter: Filter<DeliveryDoc> = { webhook_id: webhook._id };
  if (page.status !== undefined) filter.status = page.status;
  const paged: Filter<DeliveryDoc> =
    page.after === undefined ? filter : { ...filter, _id: { $lt: new ObjectId(page.after) } };
  const coll = deliveriesCollection(db);
  const [docs, total] = await Promise.all([
    coll.find(paged, { projection: LIST_PROJECTION }).sort({ _id: -1 }).limit(page.limit).toArray(),
    coll.countDocuments(filter),
  ]);
  return { docs, total };
}

export async function getDelivery(db: Db, bucket: BucketDoc, webhook: WebhookDoc, id: string): Promise<DeliveryDoc> {
  const _id = objectIdFromHex(id);
  const doc = _id && (await deliveriesCollection(db).findOne({ _id, webhook_id: webhook._id }));
  if (!doc) throw notFound('delivery', id, bucket.slug);
  return doc;
}

/**
 * What a redelivery of `status` sets. A pending delivery has a retry scheduled: the redelivery is
 * that retry brought forward (the round goes on from where it was), so the event is sent once
 * more, not once now and again at the retry's time. A finished one is due now with a fresh round.
 */
function requeueOf(status: DeliveryStatus, now: Date): Partial<DeliveryDoc> {
  const due = { status: 'pending' as const, next_attempt_at: now, claim: null, finished_at: null };
  return status === 'pending' ? due : { ...due, tries: 0 };
}

/**
 * Queues a delivery again: due now, same id (receivers that saw it already drop it); see
 * requeueOf for its retries. Refused while a worker holds it, since that attempt's result would
 * be lost. Conditional on the status read, so a delivery that finished meanwhile is read again.
 */
export async function redeliver(db: Db, bucket: BucketDoc, webhook: WebhookDoc, id: string): Promise<DeliveryDoc> {
  for (;;) {
    const existing = await getDelivery(db, bucket, webhook, id);
    const now = new Date();
    const free = [{ claim: null }, { 'claim.until': { $lt: now } }];
    const requeued = await deliveriesCollection(db).findOneAndUpdate(
      { _id: existing._id, status: existing.status, $or: free },
      { $set: requeueOf(existing.status, now), $unset: { expires_at: '' } },
      { returnDocument: 'after' },
    );
    if (requeued) return requeued;
    const held = await deliveriesCollection(db).findOne({ _id: existing._id, $nor: free });
    if (held) {
      throw new HttpError(
        409,
        `Delivery '${id}' is being attempted right now; redeliver it once the attempt has ended (within seconds)`,
        'delivery_in_progress',
      );
    }
  }
}

/** `ping` to the webhook, whatever its events and even while it is disabled: a check of the endpoint. */
export async function queuePing(db: Db, bucket: BucketDoc, webhook: WebhookDoc): Promise<DeliveryDoc> {
  const now = new Date();
  const eventId = new ObjectId().toHexString();
  const body = renderBody(
    { id: eventId, type: PING, created_at: now, bucket_slug: bucket.slug },
    { webhook_id: webhook._id.toHexString(), title: webhook.title },
  );
  const doc = newDelivery(webhook, eventId, PING, body, now);
  await deliveriesCollection(db).insertOne(doc);
  return doc;
}
