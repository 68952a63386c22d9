import type { Request } from 'express';

/** The label of a request no route matched (so unknown paths cannot multiply metric series). */
export const UNMATCHED = 'unmatched';

/** Path parameters that name the Bucket, on /v3 and on the public file routes. */
const BUCKET_PARAMS = new Set([':slug', ':bucket']);

export interface RouteMatch {
  /** The route as declared, with the prefix it is mounted under: "/v3/buckets/:slug/objects". */
  pattern: string;
  /** The Bucket slug the path names, if the route has one. */
  bucket: string | null;
}

function segments(path: string): string[] {
  return path.replace(/\/+$/, '').split('/');
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Lines a route's declared path up with the path requested. The routes of this service have
 * only whole-segment parameters (no wildcards or optional parts), so the requested path has the
 * route's segments at its end and its mount prefix before them. Computed once the response is
 * done: by then Express has unwound `baseUrl` and `params` of a request that ended in an error,
 * but `route` stays, and the URL tells the rest.
 */
export function matchRoute(routePath: string, urlPath: string): RouteMatch | null {
  const declared = segments(routePath);
  const actual = segments(urlPath);
  const offset = actual.length - declared.length;
  if (offset < 0) return null;
  const at = declared.findIndex((part) => BUCKET_PARAMS.has(part));
  const prefix = offset === 0 ? '' : actual.slice(0, offset + 1).join('/');
  return { pattern: prefix + routePath, bucket: at < 0 ? null : decoded(actual[offset + at] ?? '') };
}

/** The route pattern and Bucket of a finished request; unmatched requests share one label. */
export function routeOf(req: Request): RouteMatch {
  const routePath: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof routePath !== 'string') return { pattern: UNMATCHED, bucket: null };
  const url = req.originalUrl;
  const q = url.indexOf('?');
  return matchRoute(routePath, q < 0 ? url : url.slice(0, q)) ?? { pattern: UNMATCHED, bucket: null };
}
