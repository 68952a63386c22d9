import type { ErrorCodeFor } from './codes.js';
import { NotFoundError } from './http-errors.js';

/** What each addressable resource is called in messages, which key addresses it, and its code. */
const RESOURCES = {
  bucket: { label: 'Bucket', key: 'slug', code: 'bucket_not_found' },
  object: { label: 'Object', key: 'id', code: 'object_not_found' },
  object_type: { label: 'Object type', key: 'slug', code: 'object_type_not_found' },
  revision: { label: 'Revision', key: 'id', code: 'revision_not_found' },
  media: { label: 'Media', key: 'id', code: 'media_not_found' },
  media_file: { label: 'Media', key: 'name', code: 'media_not_found' },
  media_folder: { label: 'Folder', key: 'slug', code: 'folder_not_found' },
  webhook: { label: 'Webhook', key: 'id', code: 'webhook_not_found' },
  delivery: { label: 'Delivery', key: 'id', code: 'delivery_not_found' },
  metafield: { label: 'Metafield', key: 'key', code: 'not_found' },
  merge_request: { label: 'Merge request', key: 'id', code: 'not_found' },
  extension: { label: 'Extension', key: 'id', code: 'extension_not_found' },
} as const satisfies Record<string, { label: string; key: string; code: ErrorCodeFor<404> }>;

export type NotFoundResource = keyof typeof RESOURCES;

/**
 * The one wording of a missing resource: "Object with id 'x' not found in bucket 'y'". A
 * revision also names its Object: "Revision with id 'r' not found for object 'o' in bucket 'y'".
 */
export function notFound(
  resource: NotFoundResource,
  value: string,
  bucketSlug?: string,
  objectId?: string,
): NotFoundError {
  const { label, key, code } = RESOURCES[resource];
  const forObject = objectId === undefined ? '' : ` for object '${objectId}'`;
  const inBucket = bucketSlug === undefined ? '' : ` in bucket '${bucketSlug}'`;
  return new NotFoundError(`${label} with ${key} '${value}' not found${forObject}${inBucket}`, code);
}

/** A list query that matched nothing (clients read this 404 as "none"). */
export function noMatch(what: 'objects' | 'media', bucketSlug: string): NotFoundError {
  return new NotFoundError(`No ${what} found in bucket '${bucketSlug}' for this query`, 'no_match');
}

/** A path outside /v3 that no route serves. */
export function routeNotFound(method: string, path: string): NotFoundError {
  return new NotFoundError(`No route for ${method} ${path}`, 'route_not_found');
}
