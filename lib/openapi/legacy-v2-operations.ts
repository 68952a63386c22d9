/*
 * Which v2 operations are v3's own handlers and which are v2's: read by the routes and by the
 * OpenAPI document (kept free of imports, so the document does not load the routes).
 */

/**
 * v3 paths whose contract v2 already had: v2 serves these exact handlers (same services,
 * renderers and errors), so no rule has a v2 copy, except the operations in V2_OWN_OPERATIONS.
 * docs/legacy.md lists where v2 differs.
 */
export const V2_MIRRORED_PATHS: ReadonlySet<string> = new Set([
  '/buckets/:slug/object-types',
  '/buckets/:slug/object-types/:type_slug',
  '/buckets/:slug/objects',
  '/buckets/:slug/objects/:object_id',
  '/buckets/:slug/objects/:object_id/revisions',
  '/buckets/:slug/media',
  '/buckets/:slug/media/:media_id',
  '/buckets/:slug/media-folders',
  '/buckets/:slug/media-folders/:folder_slug',
  '/buckets/:slug/webhooks',
  '/buckets/:slug/webhooks/:webhook_id',
  '/buckets/:slug/webhooks/:webhook_id/rotate-secret',
  '/buckets/:slug/webhooks/:webhook_id/test',
  '/buckets/:slug/webhooks/:webhook_id/deliveries',
  '/buckets/:slug/webhooks/:webhook_id/deliveries/:delivery_id',
  '/buckets/:slug/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
]);

/**
 * Mirrored writes whose body v2 words its own way (content as a `metafields` array): the v3
 * handler, with the body translated just before it.
 */
export const V2_BODIES: ReadonlySet<string> = new Set([
  'post /buckets/:slug/objects',
  'patch /buckets/:slug/objects/:object_id',
  'post /buckets/:slug/objects/:object_id/revisions',
]);

/**
 * Operations on those paths that v2 answers its own way (the services stay shared), so
 * openapi/paths/legacy-v2.json describes each instead of mirroring v3: `show_metafields` on
 * Object reads, the v1/v2 media sort values, an Object type delete that refuses a type with
 * Objects (v2 kept them), and the V2_BODIES writes.
 */
export const V2_OWN_OPERATIONS: ReadonlySet<string> = new Set([
  'get /buckets/:slug/objects',
  'get /buckets/:slug/objects/:object_id',
  'get /buckets/:slug/media',
  'delete /buckets/:slug/object-types/:type_slug',
  ...V2_BODIES,
]);
