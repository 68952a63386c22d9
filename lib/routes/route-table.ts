import { Router, type RequestHandler } from 'express';
import type { Db } from 'mongodb';
import { loadBucket } from '../middleware/load-bucket.js';

export type Method = 'get' | 'post' | 'patch' | 'delete';

/**
 * Every v3 route is declared as data, so the app mounts exactly what the OpenAPI test checks
 * against the published document (no route can exist undocumented).
 */
export interface RouteDef {
  method: Method;
  /** Express path relative to /v3, e.g. "/buckets/:slug/objects/:object_id". */
  path: string;
  handlers: RequestHandler[];
}

export function route(method: Method, path: string, ...handlers: RequestHandler[]): RouteDef {
  return { method, path, handlers };
}

/** Bucket-scoped paths load their Bucket first, once, before authentication. */
export function mountRoutes(defs: RouteDef[], db: Db): Router {
  const router = Router();
  const withBucket = loadBucket(db);
  for (const def of defs) {
    const chain = def.path.startsWith('/buckets/:slug') ? [withBucket, ...def.handlers] : def.handlers;
    router[def.method](def.path, ...chain);
  }
  return router;
}
