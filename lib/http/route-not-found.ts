import { routeNotFound } from '../errors/not-found.js';
import type { Request, RequestHandler } from 'express';
import type { Config } from '../config.js';
import { sendJson } from './respond.js';

/** Where a path this host does not serve is most likely served. */
function likelyHost(req: Request, config: Config): string {
  const rest = req.path;
  if (/^\/(agents|users|ai)(\/|$)/.test(rest)) return `${config.agentsUrl}/v3${rest}`;
  if (req.method === 'POST' && /^\/buckets\/[^/]+\/media\/?$/.test(rest)) return `${config.uploadUrl}/v3${rest}`;
  return `${config.publicUrl}/v3/openapi.json`;
}

/**
 * Spec quirk: an unknown path under /v3 answers 200 with message "Route not found"; clients
 * read the body, not the status line. The pointer names where the intended path is served,
 * or the API description when nothing more specific applies.
 */
export function v3RouteNotFound(config: Config): RequestHandler {
  return (req, res) => {
    sendJson(res, 200, { message: 'Route not found', served_at: likelyHost(req, config) });
  };
}

/** Outside /v3 an unknown path is an ordinary 404 with the error body. */
export const plainNotFound: RequestHandler = (req) => {
  throw routeNotFound(req.method, req.path);
};
