import { Router, type RequestHandler } from 'express';
import type { Db } from 'mongodb';
import { memberAccess } from '../accounts/member-access.js';
import type { PutOffWork } from '../http/after-answer.js';
import { idempotencyKeys } from '../middleware/idempotency.js';
import { loadBucket, type BucketLoader } from '../middleware/load-bucket.js';
import { requireRead, requireWrite } from '../middleware/authenticate.js';
import { readParamsOnce } from '../http/read-params.js';
import type { ParamName, ParamSet } from '../query/read-params.js';
import { setMatchedRoute, type Access, type BucketAccess } from './access.js';

/**
 * v3 edits with PATCH; its one PUT replaces a whole sub-resource (a media item's file). The legacy
 * routes (v1 edits, Extensions) edit with PUT.
 */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Every route of every version is declared as data: the app mounts exactly these, the OpenAPI
 * test checks them against the published document in both directions (query parameters
 * included), the role check reads their `access`, and metrics label requests by their pattern.
 */
export interface RouteDef {
  method: Method;
  /** Express path relative to the version's prefix, e.g. "/buckets/:slug/objects/:object_id". */
  path: string;
  /** The query parameters the route takes; handlers read them with readParams(res, params). */
  params: ParamSet<ParamName>;
  /** Who may call it (lib/routes/access.ts). */
  access: Access;
  handlers: RequestHandler[];
  /**
   * The path parameter naming the Object whose latest version the handler reads first: it is
   * read beside the Bucket (lib/objects/read-ahead.ts), and the handler takes it with takeReadAhead.
   */
  readAhead?: string;
  /**
   * The handler's writes check the Bucket in their own command (lib/buckets/remembered-bucket.ts),
   * so a request with the write key may take the Bucket from memory instead of reading it.
   */
  bucketFromMemory?: boolean;
}

export function route(
  method: Method,
  path: string,
  params: ParamSet<ParamName>,
  access: Access,
  ...handlers: RequestHandler[]
): RouteDef {
  return { method, path, params, access, handlers };
}

/** `def`, with the Object its path parameter `param` names read beside the Bucket (RouteDef.readAhead). */
export function readingAhead(def: RouteDef, param: string): RouteDef {
  return { ...def, readAhead: param };
}

/**
 * `def`, whose writes all check the Bucket in their own command, taking its Bucket from memory for
 * requests with the write key (RouteDef.bucketFromMemory). Its check must be the write key's: a
 * request run again on a Bucket read afresh is checked by it again.
 */
export function bucketFromMemory(def: RouteDef): RouteDef {
  const { access } = def;
  if (access.kind !== 'bucket' || !access.write || access.accountCheck !== undefined)
    throw new Error(`${def.method} ${def.path}: only a route checked by the write key`);
  return { ...def, bucketFromMemory: true };
}

/**
 * Paths are matched as written: case-sensitive, and a trailing slash is another path. Express's
 * defaults (case-insensitive, optional trailing slash) would let spellings through that no
 * declaration names; with these, a misspelt path is the version's route-not-found answer.
 */
export const ROUTER_OPTIONS = { caseSensitive: true, strict: true } as const;

/** Paths naming a Bucket: v3 and v2 `/buckets/:slug…`, v1 `/:slug…`. */
const BUCKET_PATH = /^(\/buckets)?\/:slug(\/|$)/;

/** The routes that take an Idempotency-Key (lib/middleware/idempotency.ts): POSTs that write to a Bucket. */
export function takesIdempotencyKey(def: Pick<RouteDef, 'method' | 'path' | 'access'>): boolean {
  return def.method === 'post' && BUCKET_PATH.test(def.path) && def.access.kind === 'bucket' && def.access.write;
}

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
export function mounting(db: Db, gate: RequestHandler, putOff: PutOffWork, bucketMemoryMs: number): Mounting {
  return {
    buckets: loadBucket(db, bucketMemoryMs),
    gate,
    asMember: memberAccess(db),
    keyed: idempotencyKeys(db),
    // Last before the handler, so work it puts off (afterAnswer) is kept in its own async context.
    later: putOff.scope(),
  };
}

/**
 * Mounts routes under `prefix` (only used for the route's label). The matched route's
 * declaration is recorded first, then parameters are read (so every response, a missing
 * Bucket's 404 included, honours `pretty`); Bucket paths then load their Bucket, once, and pass
 * `gate` (request budgets, lib/middleware/request-gate.ts) before authentication. Just before the
 * handler, the role checks, on the routes that take one, the Idempotency-Key check, and the scope
 * of work the handler puts off until its answer is sent (lib/http/after-answer.ts).
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
    const handler = def.bucketFromMemory && check ? buckets.retried(last, check) : last;
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
