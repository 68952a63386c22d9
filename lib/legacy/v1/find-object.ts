import type { Db } from 'mongodb';
import { objectsCollection, type BucketDoc } from '../../db/collections.js';
import { BadRequestError, NotFoundError } from '../../errors/http-errors.js';
import { readOptions } from '../../services/query-time-limit.js';
import { isPlainObject } from '../../util/plain-object.js';

/**
 * v1 names an Object by slug (or id); v3 services take the id. The slug is looked up among the
 * latest versions, narrowed by `type_slug` and `locale` when the body gives them.
 */
export async function objectIdOf(db: Db, bucket: BucketDoc, raw: unknown): Promise<string> {
  const body = isPlainObject(raw) ? raw : {};
  const id = body.id ?? body._id;
  if (typeof id === 'string' && id !== '') return id;
  const slug = body.slug;
  if (typeof slug !== 'string' || slug === '')
    throw new BadRequestError('Name the Object: send its slug (or id)', 'invalid_body');
  return objectIdBySlug(db, bucket, slug, body);
}

export async function objectIdBySlug(
  db: Db,
  bucket: BucketDoc,
  slug: string,
  narrow: Record<string, unknown> = {},
): Promise<string> {
  const filter: Record<string, unknown> = { bucket_id: bucket._id, slug };
  if (typeof narrow.type_slug === 'string') filter.type = narrow.type_slug;
  if (typeof narrow.locale === 'string') filter.locale = narrow.locale;
  const doc = await objectsCollection(db).findOne(filter, { ...readOptions(db), projection: { _id: 1 } });
  if (!doc)
    throw new NotFoundError(`Object with slug '${slug}' not found in bucket '${bucket.slug}'`, 'object_not_found');
  return doc._id.toHexString();
}
