import { Router, type RequestHandler } from 'express';
import type { Db } from 'mongodb';
import { memberAccess } from '../accounts/member-access.js';
import { loadBucket } from '../middleware/load-bucket.js';
import { readParamsOnce } from '../middleware/read-params.js';
import type { ParamName, ParamSet } from '../query/read-params.js';

/** v3 never edits with PUT; the legacy Extensions routes (v1 and v2 alike) do. */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Every v3 route is declared as data, so the app mounts exactly what the OpenAPI test checks
 * against the published document (no route can exist undocumented), query parameters included.
 */
export interface RouteDef {
  method: Method;
  /** Express path relative to /v3, e.g. "/buckets/:slug/objects/:object_id". */
  path: string;
  /** The query parameters the route takes; handlers read them with readParams(res, params). */
  params: ParamSet<ParamName>;
  handlers: RequestHandler[];
}

export function route(
  method: Method,
  path: string,
  params: ParamSet<ParamName>,
  ...handlers: RequestHandler[]
): RouteDef {
  return { method, path, params, handlers };
}

/**
 * Parameters are read first (so every response, a missing Bucket's 404 included, honours
 * `pretty`), then bucket-scoped paths load their Bucket, once, and pass `gate` (request budgets,
 * lib/middleware/request-gate.ts) before authentication.
 */
export function mountRoutes(defs: RouteDef[], db: Db, gate: RequestHandler): Router {
  const router = Router();
  const withBucket = loadBucket(db);
  const asMember = memberAccess(db);
  for (const def of defs) {
    const scoped = def.path.startsWith('/buckets/:slug')
      ? [withBucket, gate, ...withMemberAccess(def.handlers, asMember)]
      : def.handlers;
    router[def.method](def.path, readParamsOnce(def.params), ...scoped);
  }
  return router;
}

/** The role checks that need the parsed body (lib/accounts/member-access.ts) run just before the route's own handler. */
export function withMemberAccess(handlers: RequestHandler[], asMember: RequestHandler): RequestHandler[] {
  return [...handlers.slice(0, -1), asMember, ...handlers.slice(-1)];
}
