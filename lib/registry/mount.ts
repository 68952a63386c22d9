import { Router, type RequestHandler } from 'express';
import type { Db } from 'mongodb';
import { memberAccess } from '../middleware/member-access.js';
import { viaMember } from '../accounts/request-account.js';
import type { PutOffWork } from '../http/respond.js';
import { readParamsOnce } from '../http/request.js';
import { requireRead, requireWrite } from '../middleware/authenticate.js';
import { idempotencyKeys } from '../middleware/idempotency.js';
import { loadBucket, type BucketLoader } from '../middleware/load-bucket.js';
import { retriedOnFreshBucket } from '../middleware/load-bucket.js';
import { setMatchedRoute, type BucketAccess } from '../routes/access.js';
import type { VersionMemo } from '../objects/write/version-memo.js';
import { BUCKET_PATH, ROUTER_OPTIONS, takesIdempotencyKey, type RouteDef } from '../routes/route-table.js';

/** What every mounted route shares, made once per app (so one memory of Buckets serves every version). */
export interface Mounting {
  buckets: BucketLoader;
  /** Request budgets (lib/middleware/request-gate.ts). */
  gate: RequestHandler;
  asMember: RequestHandler;
  keyed: RequestHandler;
  /** The scope of work a handler puts off until its answer is sent. */
  later: RequestHandler;
}

/** The shared parts of mounting, for an app on `db`. */
export function mounting(
  db: Db,
  gate: RequestHandler,
  putOff: PutOffWork,
  bucketMemoryMs: number,
  versions?: VersionMemo,
): Mounting {
  const members = memberAccess(db);
  return {
    buckets: loadBucket(db, bucketMemoryMs, versions),
    gate,
    // A request made with a Bucket key has no role to check, so it skips the member step (an async one) altogether.
    asMember: (req, res, next) => {
      if (viaMember(res)) return members(req, res, next);
      next();
    },
    keyed: idempotencyKeys(db),
    // Last before the handler: the queue of work its writes put off until the answer (afterAnswer).
    later: putOff.scope(),
  };
}

/**
 * Mounts routes under `prefix` (only used for the route's label). The matched route's
 * declaration is recorded first, then parameters are read (so every response, a missing
 * Bucket's 404 included, honours `pretty`); Bucket paths then load their Bucket, once, and pass
 * `gate` (request budgets, lib/middleware/request-gate.ts) before authentication. Just before the
 * handler, the role checks, on the routes that take one, the Idempotency-Key check, and the scope
 * of work the handler puts off until its answer is sent (lib/http/respond.ts).
 */
export function mountRoutes(defs: readonly RouteDef[], prefix: string, mount: Mounting): Router {
  const router = Router(ROUTER_OPTIONS);
  const { buckets, asMember, keyed, later, gate } = mount;
  for (const def of defs) {
    const matched = { pattern: `${prefix}${def.path}`, access: def.access };
    const declare: RequestHandler = (req, res, next) => {
      const bucket = req.params.slug ?? req.params.bucket;
      setMatchedRoute(res, matched, typeof bucket === 'string' ? bucket : undefined);
      next();
    };
    router[def.method](def.path, declare, readParamsOnce(def.params), ...scopedHandlers(def));
  }
  return router;

  /**
   * A Bucket route's handlers with what its declaration asks for: the Bucket loaded, the request
   * budgets, the credential check its access declares (the only place one is added: handler
   * lists never carry it), the role checks, the Idempotency-Key check and the scope of put-off work.
   */
  function scopedHandlers(def: RouteDef): RequestHandler[] {
    const { access } = def;
    if (!BUCKET_PATH.test(def.path)) {
      if (access.kind === 'bucket') throw new Error(`${def.method} ${def.path}: Bucket access on a path without :slug`);
      return def.handlers;
    }
    // Public files of a Bucket's Extensions are on a Bucket path too, and check nothing.
    const check = access.kind === 'bucket' ? credentialCheck(access) : undefined;
    const early = access.kind === 'bucket' && (access.accountCheck !== undefined || access.checkFirst === true);
    const own = def.handlers.slice(0, -1);
    const last = def.handlers[def.handlers.length - 1] as RequestHandler;
    const handler = def.bucketFromMemory && check ? retriedOnFreshBucket(buckets.readAfresh, last, check) : last;
    return [
      buckets.load({ objectParam: def.readAhead, fromMemory: def.bucketFromMemory }),
      gate,
      ...(check && early ? [check] : []),
      ...own,
      ...(check && !early ? [check] : []),
      asMember,
      ...(takesIdempotencyKey(def) ? [keyed] : []),
      later,
      handler,
    ];
  }
}

/** The check of the credential `access` declares: an account-only route's own, else the read or write key (or a member's role). */
function credentialCheck(access: BucketAccess): RequestHandler {
  return access.accountCheck ?? (access.write ? requireWrite : requireRead);
}
