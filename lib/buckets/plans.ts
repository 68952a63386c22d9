import type { Db } from 'mongodb';
import { bucketsCollection, type BucketDoc } from '../db/collections.js';
import { BucketAdminError } from '../errors/domain-errors.js';
import type { MonthlyRequests } from '../limits/monthly-requests.js';
import { effectivePlan, limitOf, type Plan, type PlanField, type PlanLimitName } from '../config/plan.js';
import { ensureUsage } from '../limits/usage-counters.js';

/** One limit of the plan and how much of it is used; `limit` null: unlimited. */
export interface UsageLine {
  used: number;
  limit: number | null;
}

/** GET /v3/buckets/{slug}/usage (schemas/BucketUsage.json). */
export interface BucketUsage {
  usage: Record<PlanLimitName, UsageLine> & { month: string };
}

/** What the Bucket uses of each limit of its plan, the month's requests included. */
export async function bucketUsage(
  db: Db,
  bucket: BucketDoc,
  defaults: Plan,
  requests: MonthlyRequests,
): Promise<BucketUsage> {
  const plan = effectivePlan(bucket.plan, defaults);
  const held = await ensureUsage(db, bucket._id);
  const { month, requests: served } = await requests.total(bucket._id);
  const line = (name: PlanLimitName, used: number): UsageLine => ({ used, limit: limitOf(plan, name) });
  return {
    usage: {
      month,
      objects: line('objects', held.objects),
      media_bytes: line('media_bytes', held.media_bytes),
      object_types: line('object_types', held.object_types),
      webhooks: line('webhooks', held.webhooks),
      requests_per_month: line('requests_per_month', served),
    },
  };
}

/** A change `bucketctl set-plan` makes to one limit: a number, unlimited (null), or back to the default. */
export type PlanChange = number | null | 'default';

/**
 * Sets limits of a Bucket's own plan; limits not named keep their setting. Takes effect on the next
 * Object write of every process (its check of the Bucket fails, lib/cache/bucket-generation.ts)
 * and within BUCKET_MEMORY_MS on every request (the request budgets). Returns the stored plan.
 */
export async function setPlan(
  db: Db,
  slug: string,
  changes: Partial<Record<PlanField, PlanChange>>,
): Promise<BucketDoc['plan']> {
  const set: Record<string, number | null> = {};
  const unset: Record<string, ''> = {};
  for (const [field, change] of Object.entries(changes)) {
    if (change === 'default') unset[`plan.${field}`] = '';
    else set[`plan.${field}`] = change;
  }
  const updated = await bucketsCollection(db).findOneAndUpdate(
    { slug },
    {
      $set: { ...set, modified_at: new Date() },
      ...(Object.keys(unset).length > 0 && { $unset: unset }),
      // A write that took the Bucket from memory checks its generation (lib/cache/bucket-generation.ts).
      $inc: { generation: 1 },
    },
    { returnDocument: 'after' },
  );
  if (!updated) throw new BucketAdminError(`Bucket "${slug}" does not exist`);
  return updated.plan ?? {};
}
