import { ObjectId, type Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { BadRequestError } from '../errors/http-errors.js';
import { notFound } from '../errors/not-found.js';
import type { Plan } from '../config/plan.js';
import { countRemoval, ensureUsage, reserve } from '../limits/usage-counters.js';
import { parseProps } from '../query/props.js';
import type { WebhookPatch } from '../types/bodies.generated.js';
import { objectIdFromHex } from '../util/values.js';
import { bumpWebhookGeneration } from './outbox.js';
import { deliveriesCollection, webhooksCollection, type WebhookDoc } from '../store/webhooks.js';
import { HEADER_MASK, unmaskHeaders } from './header-mask.js';
import { generateSecret } from './signing.js';
import { assertWebhookCreate, assertWebhookPatch } from './validate.js';

/** Every recorded event reads a Bucket's webhooks, and every one may queue a delivery: a bound on both. */
export const MAX_WEBHOOKS_PER_BUCKET = 50;

function webhookId(bucket: BucketDoc, id: string): ObjectId {
  const oid = objectIdFromHex(id);
  if (!oid) throw notFound('webhook', id, bucket.slug);
  return oid;
}

/** The stored form of the fields a body may set (validated); `headers`: those stored now, which masks keep. */
function storedFields(input: WebhookPatch, headers: WebhookDoc['headers'] = []): Partial<WebhookDoc> {
  const out: Partial<WebhookDoc> = {};
  if (input.title !== undefined) out.title = input.title;
  if (input.endpoint !== undefined) out.endpoint = input.endpoint;
  if (input.events !== undefined) out.events = input.events;
  if (input.object_types !== undefined) out.object_types = input.object_types;
  if (input.props !== undefined) {
    const props = input.props === null ? null : parseProps(input.props, () => undefined);
    out.props = props === null ? null : props.join(',');
  }
  if (input.payload !== undefined) out.payload = input.payload;
  if (input.headers !== undefined) out.headers = unmaskHeaders(input.headers, headers);
  if (input.enabled !== undefined) {
    out.enabled = input.enabled;
    // Turning it on is the client's answer to why it was turned off.
    if (input.enabled)
      Object.assign(out, {
        disabled_reason: null,
        consecutive_failures: 0,
        breaker: { failures: 0, open_until: null },
      });
  }
  return out;
}

/** `plans`: the plan of Buckets that set no limit of their own (config PLAN_MAX_*); absent: unlimited. */
export async function createWebhook(db: Db, bucket: BucketDoc, input: unknown, plans?: Plan): Promise<WebhookDoc> {
  assertWebhookCreate(input);
  const webhooks = webhooksCollection(db);
  if ((await webhooks.countDocuments({ bucket_id: bucket._id })) >= MAX_WEBHOOKS_PER_BUCKET) {
    throw new BadRequestError(
      `The bucket '${bucket.slug}' already has ${MAX_WEBHOOKS_PER_BUCKET} webhooks, the most it may have: delete one first`,
    );
  }
  const now = new Date();
  const doc: WebhookDoc = {
    _id: new ObjectId(),
    bucket_id: bucket._id,
    title: new URL(input.endpoint).host,
    endpoint: input.endpoint,
    events: input.events,
    object_types: null,
    props: null,
    payload: true,
    headers: [],
    enabled: true,
    disabled_reason: null,
    consecutive_failures: 0,
    secret: generateSecret(),
    created_at: now,
    modified_at: now,
    ...storedFields(input),
  };
  const slot = await reserve(db, bucket, plans, 'webhooks', 1);
  try {
    await webhooks.insertOne(doc);
    slot.keep();
    await bumpWebhookGeneration(db, bucket._id);
  } finally {
    await slot.settle();
  }
  return doc;
}

export async function listWebhooks(db: Db, bucket: BucketDoc): Promise<WebhookDoc[]> {
  return webhooksCollection(db).find({ bucket_id: bucket._id }).sort({ _id: 1 }).toArray();
}

export async function getWebhook(db: Db, bucket: BucketDoc, id: string): Promise<WebhookDoc> {
  const doc = await webhooksCollection(db).findOne({ _id: webhookId(bucket, id), bucket_id: bucket._id });
  if (!doc) throw notFound('webhook', id, bucket.slug);
  return doc;
}

async function updateFields(db: Db, bucket: BucketDoc, id: string, set: Partial<WebhookDoc>): Promise<WebhookDoc> {
  const updated = await webhooksCollection(db).findOneAndUpdate(
    { _id: webhookId(bucket, id), bucket_id: bucket._id },
    { $set: { ...set, modified_at: new Date() } },
    { returnDocument: 'after' },
  );
  if (!updated) throw notFound('webhook', id, bucket.slug);
  await bumpWebhookGeneration(db, bucket._id);
  return updated;
}

export async function updateWebhook(db: Db, bucket: BucketDoc, id: string, input: unknown): Promise<WebhookDoc> {
  const oid = webhookId(bucket, id);
  assertWebhookPatch(input);
  const masked = Object.values(input.headers ?? {}).includes(HEADER_MASK);
  const stored = masked ? (await getWebhook(db, bucket, oid.toHexString())).headers : [];
  return updateFields(db, bucket, oid.toHexString(), storedFields(input, stored));
}

/** A new secret, effective for every attempt from now on, queued deliveries included. */
export function rotateSecret(db: Db, bucket: BucketDoc, id: string): Promise<WebhookDoc> {
  return updateFields(db, bucket, id, { secret: generateSecret() });
}

/** The webhook and its delivery log; deliveries not yet sent are dropped with it. */
export async function deleteWebhook(db: Db, bucket: BucketDoc, id: string): Promise<void> {
  const _id = webhookId(bucket, id);
  await ensureUsage(db, bucket._id);
  const { deletedCount } = await webhooksCollection(db).deleteOne({ _id, bucket_id: bucket._id });
  if (deletedCount === 0) throw notFound('webhook', id, bucket.slug);
  await bumpWebhookGeneration(db, bucket._id);
  await countRemoval(db, bucket._id, 'webhooks', deletedCount);
  await deliveriesCollection(db).deleteMany({ webhook_id: _id, bucket_id: bucket._id });
}
