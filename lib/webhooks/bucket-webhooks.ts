import { LRUCache } from 'lru-cache';
import type { Db, ObjectId } from 'mongodb';
import { bucketsCollection } from '../db/collections.js';
import { readOptions } from '../db/query-time-limit.js';
import { webhooksCollection, type WebhookDoc } from '../store/webhooks.js';

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
