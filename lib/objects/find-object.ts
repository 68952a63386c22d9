import type { Metafield } from '../types/metafield.js';
import type { Db, Document } from 'mongodb';
import { objectsCollection, type BucketDoc } from '../db/collections.js';
import { BadRequestError, NotFoundError } from '../errors/http-errors.js';
import { MAX_LIST_VALUES } from '../query/limits.js';
import { readOptions } from '../db/service-db.js';
import { isPlainObject } from '../util/values.js';
import { objectIdFromHex } from '../util/values.js';

/** The Object a v1 write body names, and whether it named it by slug (then `slug` is not a rename). */
export interface NamedObject {
  id: string;
  bySlug: boolean;
}

/**
 * v1 names an Object by slug (or id); v3 services take the id. The slug is looked up among the
 * latest versions, narrowed by `type_slug` and `locale` when the body gives them, and to the
 * caller's Object types when it has a scope (lib/accounts/type-scope.ts).
 */
export async function objectNamedBy(
  db: Db,
  bucket: BucketDoc,
  raw: unknown,
  scope: readonly string[] | null = null,
): Promise<NamedObject> {
  const body = isPlainObject(raw) ? raw : {};
  const id = body.id ?? body._id;
  if (typeof id === 'string' && id !== '') return { id, bySlug: false };
  const slug = body.slug;
  if (typeof slug !== 'string' || slug === '')
    throw new BadRequestError('Name the Object: send its slug (or id)', 'invalid_body');
  return { id: await objectIdBySlug(db, bucket, slug, body, scope), bySlug: true };
}

/** The latest versions a v1 slug names, narrowed as the request narrows it. */
export function slugFilter(bucket: BucketDoc, slug: string, narrow: Record<string, unknown> = {}): Document {
  const filter: Document = { bucket_id: bucket._id, slug };
  if (typeof narrow.type_slug === 'string') filter.type = narrow.type_slug;
  if (typeof narrow.locale === 'string') filter.locale = narrow.locale;
  return filter;
}

export async function objectIdBySlug(
  db: Db,
  bucket: BucketDoc,
  slug: string,
  narrow: Record<string, unknown> = {},
  scope: readonly string[] | null = null,
): Promise<string> {
  const named = slugFilter(bucket, slug, narrow);
  const filter = scope ? { $and: [named, { type: { $in: [...scope] } }] } : named;
  const doc = await objectsCollection(db).findOne(filter, { ...readOptions(db), projection: { _id: 1 } });
  if (!doc)
    throw new NotFoundError(`Object with slug '${slug}' not found in bucket '${bucket.slug}'`, 'object_not_found');
  return doc._id.toHexString();
}
/** Every Object a slug names (of any type or locale), for `metafield_object_slug`; bounded like an `$in`. */
export async function objectIdsBySlug(db: Db, bucket: BucketDoc, slug: string): Promise<string[]> {
  const docs = await objectsCollection(db)
    .find({ bucket_id: bucket._id, slug }, { ...readOptions(db), projection: { _id: 1 } })
    .limit(MAX_LIST_VALUES)
    .toArray();
  return docs.map((d) => d._id.toHexString());
}

/** The Object type slug of the Object `id` names, to read a v1 body's values by its Metafields; undefined if none. */
export async function typeSlugOf(db: Db, bucket: BucketDoc, id: string): Promise<string | undefined> {
  return (await metafieldOwnerOf(db, bucket, id)).type;
}

/** The type slug and own Metafields of the Object `id` names (neither when there is none). */
export async function metafieldOwnerOf(
  db: Db,
  bucket: BucketDoc,
  id: string,
): Promise<{ type?: string; own?: Metafield[] | undefined }> {
  const _id = objectIdFromHex(id);
  if (!_id) return {};
  const doc = await objectsCollection(db).findOne(
    { _id, bucket_id: bucket._id },
    { ...readOptions(db), projection: { type: 1, own_metafields: 1 } },
  );
  return doc ? { type: doc.type, own: doc.own_metafields } : {};
}
