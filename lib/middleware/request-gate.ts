import type { RequestHandler, Response } from 'express';
import type { AppState } from '../app-state.js';
import type { Config } from '../config.js';
import { planLimitReached, rateLimitExceeded } from '../errors/limit-errors.js';
import { deferBodyKeyAdmission } from '../limits/rate-limits.js';
import { credentialOf, writeKeyBudget } from '../limits/rate-limits.js';
import type { Admission } from '../limits/rate-limits.js';
import type { RateLimits, RequestKind } from '../limits/rate-limits.js';
import type { BucketDoc } from '../db/collections.js';
import { effectivePlan, monthOf, PLAN_LIMITS } from '../config/plan.js';
import { bucketOf } from '../http/request.js';
import { memberOf } from '../accounts/request-account.js';

/** The RateLimit-* fields (IETF httpapi draft): the budget, what is left of it, seconds until it is whole again. */
function setRateLimitHeaders(res: Response, admission: Admission): number {
  const resetSeconds = Math.max(0, Math.ceil((admission.resetAt - Date.now()) / 1000));
  res.set({
    'RateLimit-Limit': String(admission.limit),
    'RateLimit-Remaining': String(admission.remaining),
    'RateLimit-Reset': String(resetSeconds),
  });
  return resetSeconds;
}

/** One request of `budgetKey`'s per-minute budget of `kind`, or 429 once it is used. */
async function spend(rates: RateLimits, res: Response, bucket: BucketDoc, kind: RequestKind, budgetKey: string) {
  const admission = await rates.admit(kind, budgetKey);
  if (admission) {
    const resetSeconds = setRateLimitHeaders(res, admission);
    if (!admission.allowed) throw rateLimitExceeded(bucket.slug, kind, admission.limit, Math.max(1, resetSeconds));
  }
}

/**
 * Runs on every Bucket route right after the Bucket is loaded, before authentication, the body
 * and the read cache, so a refused request costs neither: 429 when the credential's reads or
 * writes of the minute are used, 402 when the Bucket's requests of the month are. A request
 * refused with 429 is not counted against the month, nor is one without the key the Bucket
 * needs for it (strangers cannot use up a Bucket's month; they are refused 402 like anyone).
 */
export function requestGate(config: Config, { rates, requests }: Pick<AppState, 'rates' | 'requests'>): RequestHandler {
  return async (req, res, next) => {
    const bucket = bucketOf(res);
    const kind = req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'write';
    const credential = credentialOf(req, bucket, kind, memberOf(res)?.account_id.toHexString());
    await spend(rates, res, bucket, kind, credential.budgetKey);
    // A legacy body `write_key` is seen once the body is read (lib/limits/rate-limits.ts): then its budget and month count too.
    if (kind === 'write' && !credential.entitled) {
      deferBodyKeyAdmission(res, async () => {
        await spend(rates, res, bucket, 'write', writeKeyBudget(bucket));
        await requests.admit(bucket._id, null);
      });
    }
    const monthly = effectivePlan(bucket.plan, config.planDefaults).max_requests_per_month;
    if (!(await requests.admit(bucket._id, monthly, credential.entitled)) && monthly !== null) {
      throw planLimitReached(
        bucket.slug,
        PLAN_LIMITS.requests_per_month,
        monthly,
        `all were used in ${monthOf(new Date())}`,
      );
    }
    next();
  };
}
