import { NotFoundError } from '../../errors/http-errors.js';
import { requireRead } from '../../middleware/authenticate.js';
import { paramSet } from '../../query/read-params.js';
import { v3Routes, type RouteDeps } from '../../routes/index.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { metafieldRoutes } from './metafields.js';

/**
 * v3 paths whose contract v2 already had: v2 serves these exact handlers (same services,
 * renderers and errors), so no rule has a v2 copy. README "Migrating from the legacy API"
 * lists where v2 differs.
 */
export const V2_MIRRORED_PATHS: ReadonlySet<string> = new Set([
  '/buckets/:slug/object-types',
  '/buckets/:slug/object-types/:type_slug',
  '/buckets/:slug/objects',
  '/buckets/:slug/objects/:object_id',
  '/buckets/:slug/objects/:object_id/revisions',
  '/buckets/:slug/media',
  '/buckets/:slug/media/:media_id',
  '/buckets/:slug/webhooks',
  '/buckets/:slug/webhooks/:webhook_id',
  '/buckets/:slug/webhooks/:webhook_id/rotate-secret',
  '/buckets/:slug/webhooks/:webhook_id/test',
  '/buckets/:slug/webhooks/:webhook_id/deliveries',
  '/buckets/:slug/webhooks/:webhook_id/deliveries/:delivery_id',
  '/buckets/:slug/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
]);

const MERGE_REQUEST = paramSet(['read_key']);

/**
 * Merge requests are not a resource of this service yet, so none exists: after the Bucket and
 * its read key check out, every id is an unknown merge request (the spec's 404 for a missing resource).
 */
function mergeRequestRoutes(): RouteDef[] {
  return [
    route('get', '/buckets/:slug/merge-requests/:merge_request_id/objects', MERGE_REQUEST, requireRead, (req) => {
      throw new NotFoundError(`Merge request with id '${String(req.params.merge_request_id)}' not found in bucket`);
    }),
  ];
}

/** Every v2 route, paths relative to /v2: the mirrored v3 routes first, then the v2-only ones. */
export function v2Routes(deps: RouteDeps): RouteDef[] {
  return [
    ...v3Routes(deps).filter((r) => V2_MIRRORED_PATHS.has(r.path)),
    ...metafieldRoutes(deps.config, deps.db, deps.state),
    ...mergeRequestRoutes(),
  ];
}
