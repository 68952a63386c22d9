import type { RequestHandler } from 'express';
import type { ParamName, ParamSet } from '../query/read-params.js';
import type { Access } from './access.js';

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
   * read beside the Bucket (lib/objects/objects.ts), and the handler takes it with takeReadAhead.
   */
  readAhead?: string;
  /**
   * The handler's writes check the Bucket in their own command (lib/cache/bucket-generation.ts),
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
export const BUCKET_PATH = /^(\/buckets)?\/:slug(\/|$)/;

/** The routes that take an Idempotency-Key (lib/middleware/idempotency.ts): POSTs that write to a Bucket. */
export function takesIdempotencyKey(def: Pick<RouteDef, 'method' | 'path' | 'access'>): boolean {
  return def.method === 'post' && BUCKET_PATH.test(def.path) && def.access.kind === 'bucket' && def.access.write;
}
