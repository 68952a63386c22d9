import type { RequestHandler, Response } from 'express';
import { producedCapped } from '../../../middleware/cached-read.js';
import { sendText } from '../../../http/respond-capped.js';
import type { ParamName, ParamSet } from '../../../query/read-params.js';
import type { Access } from '../../../routes/access.js';
import type { Method, RouteDef } from '../../../routes/route-table.js';

/** A v1 route as data, so the OpenAPI test can check it against the document in both directions. */
export interface V1Route extends RouteDef {
  /** The query parameters the route reads besides `params`: v1-only ones (parseV1Read, list-params.ts). */
  v1Params: readonly string[];
}

export function v1Route(
  method: Method,
  path: string,
  params: ParamSet<ParamName>,
  access: Access,
  ...handlers: RequestHandler[]
): V1Route {
  return { method, path, params, access, v1Params: [], handlers };
}

/**
 * v1 reads skip the read cache, whose key knows only the shared parameters (not type, q, metadata[…]),
 * but keep the response cap: the v1 shape repeats each type's Metafields in every Object.
 */
export async function sendRead(res: Response, produce: () => Promise<unknown>): Promise<void> {
  sendText(res, await producedCapped(res, produce));
}
