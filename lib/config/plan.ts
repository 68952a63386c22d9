/**
 * A Bucket's plan: the most it may hold of each counted resource and the requests it may make
 * in a calendar month. One table names every limit once, with the field stored on the Bucket,
 * the environment variable of its default, the bucketctl flag and how messages word it, so a new
 * limit is one entry here.
 */
export const PLAN_LIMITS = {
  objects: { field: 'max_objects', env: 'PLAN_MAX_OBJECTS', flag: 'max-objects', unit: 'Objects' },
  media_bytes: {
    field: 'max_media_bytes',
    env: 'PLAN_MAX_MEDIA_BYTES',
    flag: 'max-media-bytes',
    unit: 'bytes of media',
  },
  object_types: {
    field: 'max_object_types',
    env: 'PLAN_MAX_OBJECT_TYPES',
    flag: 'max-object-types',
    unit: 'Object types',
  },
  webhooks: { field: 'max_webhooks', env: 'PLAN_MAX_WEBHOOKS', flag: 'max-webhooks', unit: 'webhooks' },
  requests_per_month: {
    field: 'max_requests_per_month',
    env: 'PLAN_MAX_REQUESTS_PER_MONTH',
    flag: 'max-requests-per-month',
    unit: 'requests per month',
  },
} as const;

export type PlanLimitName = keyof typeof PLAN_LIMITS;
export type PlanField = (typeof PLAN_LIMITS)[PlanLimitName]['field'];

/** What a Bucket holds and a write can add to: every limit but the monthly requests. */
export type CountedResource = Exclude<PlanLimitName, 'requests_per_month'>;
export const COUNTED_RESOURCES: readonly CountedResource[] = ['objects', 'media_bytes', 'object_types', 'webhooks'];

/** A complete plan: the most of each; null means unlimited. */
export type Plan = Record<PlanField, number | null>;

/**
 * What `bucketctl set-plan` stored on a Bucket: a number (0 included: none allowed) or null
 * (unlimited) overrides the default; an absent field follows the default (PLAN_MAX_*).
 */
export type StoredPlan = Partial<Plan>;

export const PLAN_FIELDS: readonly PlanField[] = Object.values(PLAN_LIMITS).map((l) => l.field);

/** The unlimited plan: the default when no PLAN_MAX_* variable is set. */
export const UNLIMITED: Plan = {
  max_objects: null,
  max_media_bytes: null,
  max_object_types: null,
  max_webhooks: null,
  max_requests_per_month: null,
};

/** The plan in force for a Bucket: its own settings over the defaults. */
export function effectivePlan(stored: StoredPlan | undefined, defaults: Plan): Plan {
  const plan = { ...defaults };
  for (const field of PLAN_FIELDS) {
    const own = stored?.[field];
    if (own !== undefined) plan[field] = own;
  }
  return plan;
}

/** The limit a resource has under `plan` (null: unlimited). */
export function limitOf(plan: Plan, resource: PlanLimitName): number | null {
  return plan[PLAN_LIMITS[resource].field];
}

/** The calendar month (UTC) a request counts against, as "YYYY-MM". */
export function monthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}
