import { HttpError } from './http-errors.js';

/** How a plan limit is worded: its unit and the Bucket field holding it (an entry of PLAN_LIMITS, lib/config/plan.ts). */
export interface LimitWording {
  readonly unit: string;
  readonly field: string;
}

/**
 * 402: the spec's "Bucket must be upgraded before further use", naming the limit of the plan
 * that the request would pass and what is used of it.
 */
export function planLimitReached(bucketSlug: string, limit: LimitWording, allowed: number, detail: string): HttpError {
  const { unit, field } = limit;
  return new HttpError(
    402,
    `Bucket '${bucketSlug}' must be upgraded before further use: its plan allows ${allowed} ${unit} (${field}) ` +
      `and ${detail}; upgrade the plan`,
    'plan_limit_reached',
  );
}

/** 429: a credential used its request budget of the current minute; Retry-After says when the next one starts. */
export function rateLimitExceeded(
  bucketSlug: string,
  kind: 'read' | 'write',
  limit: number,
  retryAfterSeconds: number,
): HttpError {
  return new HttpError(
    429,
    `Too many ${kind} requests to bucket '${bucketSlug}' with this credential: at most ${limit} per minute; ` +
      `back off and retry after ${retryAfterSeconds} s`,
    'rate_limit_exceeded',
    { headers: { 'Retry-After': String(retryAfterSeconds) } },
  );
}
