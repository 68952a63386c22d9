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
  let bucket: string | null = null;
  declared.forEach((part, i) => {
    if (BUCKET_PARAMS.has(part)) bucket = decoded(actual[offset + i] ?? '');
  });
  const prefix = actual.slice(0, offset + 1).join('/');
  return { pattern: prefix + routePath, bucket };
}

/** The route pattern and Bucket of a finished request; unmatched requests share one label. */
export function routeOf(req: Request): RouteMatch {
  const routePath: unknown = (req.route as { path?: unknown } | undefined)?.path;
  const urlPath = req.originalUrl.split('?', 1)[0] ?? '';
  const match = typeof routePath === 'string' ? matchRoute(routePath, urlPath) : null;
  return match ?? { pattern: UNMATCHED, bucket: null };
}
