import type { Resource } from './roles.js';

/** The first path segment after the Bucket slug (v1 verbs such as add-object included) → what it touches. */
const BY_SEGMENT: readonly (readonly [RegExp, Resource])[] = [
  // v1's `/object-type/:type_slug` (and its `/search`) lists the Objects of a type.
  [/^object-type$/, 'objects'],
  [/object-type/, 'object_types'],
  [/object|merge-request|preview-token/, 'objects'],
  [/media/, 'media'],
  [/webhook/, 'webhooks'],
  [/^users$/, 'users'],
];

/**
 * What a Bucket route touches, from its path: `/v3/buckets/s/objects/1` and `/v1/s/add-object`
 * both touch objects. A segment this table does not know is settings (the strictest that
 * developers still pass), so a new route is never more open than it should be.
 */
export function resourceOfPath(path: string): Resource {
  const parts = path.split('/').filter((p) => p !== '');
  const afterSlug = parts[0] === 'v1' ? parts.slice(2) : parts.slice(3);
  const segment = afterSlug[0];
  if (segment === undefined) return 'bucket';
  return BY_SEGMENT.find(([pattern]) => pattern.test(segment))?.[1] ?? 'settings';
}
