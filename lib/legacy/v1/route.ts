import { Router, type RequestHandler, type Response } from 'express';
import type { Db } from 'mongodb';
import { producedCapped } from '../../http/cached-read.js';
import { sendText } from '../../http/respond-capped.js';
import { memberAccess } from '../../accounts/member-access.js';
import { loadBucket } from '../../middleware/load-bucket.js';
import { readParamsOnce } from '../../middleware/read-params.js';
import type { ParamName, ParamSet } from '../../query/read-params.js';
import { withMemberAccess } from '../../routes/route-table.js';

/** v1 edits with PUT, which v3 never does. */
export type V1Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A v1 route as data, so the OpenAPI test can check it against the document in both directions. */
export interface V1Route {
  method: V1Method;
  /** Express path relative to /v1; every v1 path starts with the Bucket slug. */
  path: string;
  /** The v3-shared parameters read first (read_key, paging, pretty). */
  params: ParamSet<ParamName>;
  /** The query parameters the route reads besides `params`: v1-only ones (parseV1Read, list-params.ts). */
  v1Params: readonly string[];
  handlers: RequestHandler[];
}

export function v1Route(
  method: V1Method,
  path: string,
  params: ParamSet<ParamName>,
  ...handlers: RequestHandler[]
): V1Route {
  return { method, path, params, v1Params: [], handlers };
}

export function mountV1(defs: V1Route[], db: Db, gate: RequestHandler): Router {
  const router = Router();
  const withBucket = loadBucket(db);
  const asMember = memberAccess(db);
  for (const def of defs) {
    const handlers = withMemberAccess(def.handlers, asMember);
    // Account routes (/v1/authenticate, /v1/buckets) address no Bucket.
    if (def.path.startsWith('/:slug'))
      router[def.method](def.path, readParamsOnce(def.params), withBucket, gate, ...handlers);
    else router[def.method](def.path, readParamsOnce(def.params), ...def.handlers);
  }
  return router;
}

/**
 * v1 reads skip the read cache, whose key knows only the shared parameters (not type, q, metadata[…]),
 * but keep the response cap: the v1 shape repeats each type's Metafields in every Object.
 */
export async function sendRead(res: Response, produce: () => Promise<unknown>): Promise<void> {
  sendText(res, await producedCapped(res, produce));
}
