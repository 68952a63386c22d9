import { ObjectId, type Db, type Filter } from 'mongodb';
import { objectsCollection, type BucketDoc, type ObjectDoc, type ObjectTypeDoc } from '../db/collections.js';
import { BadRequestError, NotFoundError } from '../errors/http-errors.js';
import { collectRefs, defaultMetadata } from '../serializers/metadata.js';
import { assertValid } from '../validation/ajv-messages.js';
import { bumpGeneration } from './bucket-generation.js';
import { prepareMetadata } from './object-metadata.js';
import { findObjectType } from './object-types.js';
import { insertWithUniqueSlug, isDuplicateKey, slugify, slugsWhere } from './slugs.js';

export type StatusFilter = 'published' | 'draft' | 'any';

interface ObjectInput {
  title?: string;
  type?: string;
  slug?: string;
  status?: 'published' | 'draft';
  content?: string;
  locale?: string | null;
  thumbnail?: string | null;
  metadata?: Record<string, unknown>;
  order?: number;
}

function notFound(bucket: BucketDoc, id: string): NotFoundError {
  return new NotFoundError(`Object with id '${id}' not found in bucket '${bucket.slug}'`);
}

/** A malformed id cannot name any Object: it is a 404 like any unknown id, never a 500. */
export function parseObjectId(bucket: BucketDoc, id: string): ObjectId {
  if (!/^[0-9a-f]{24}$/i.test(id)) throw notFound(bucket, id);
  return new ObjectId(id);
}

export function statusMatch(status: StatusFilter): Filter<ObjectDoc> {
  return status === 'any' ? {} : { status };
}

export async function getObject(db: Db, bucket: BucketDoc, id: string, status: StatusFilter): Promise<ObjectDoc> {
  const doc = await objectsCollection(db).findOne({ _id: parseObjectId(bucket, id), bucket_id: bucket._id, ...statusMatch(status) });
  if (!doc) throw notFound(bucket, id);
  return doc;
}

async function typeForWrite(db: Db, bucket: BucketDoc, slug: string): Promise<ObjectTypeDoc> {
  const type = await findObjectType(db, bucket, slug);
  if (!type) throw new BadRequestError(`Unknown object type "${slug}" in bucket '${bucket.slug}'`);
  return type;
}

/** Localized types take one of their locales (default: priority_locale); others take none. */
function resolveLocale(type: ObjectTypeDoc, requested: string | null | undefined): string | null {
  if (!type.localization) {
    if (requested) throw new BadRequestError(`Object type "${type.slug}" is not localized: locale "${requested}" is not allowed`);
    return null;
  }
  const locale = requested ?? type.priority_locale ?? null;
  if (locale === null) throw new BadRequestError(`Object type "${type.slug}" is localized: locale is required (one of ${type.locales.join(', ')})`);
  if (!type.locales.includes(locale)) throw new BadRequestError(`locale "${locale}" is not one of the locales of type "${type.slug}": ${type.locales.join(', ')}`);
  return locale;
}

export async function createObject(db: Db, bucket: BucketDoc, body: unknown): Promise<ObjectDoc> {
  assertValid('ObjectCreate', body, 'body');
  const input = body as ObjectInput & { title: string; type: string };
  const type = await typeForWrite(db, bucket, input.type);
  const locale = resolveLocale(type, input.locale);
  const metadata = { ...defaultMetadata(type.metafields), ...(await prepareMetadata(db, bucket, type, input.metadata, 'create')) };
  const status = input.status ?? 'published';
  const now = new Date();
  const objects = objectsCollection(db);
  const doc = await insertWithUniqueSlug({
    base: input.slug ?? slugify(input.title),
    explicit: input.slug !== undefined,
    what: `Object of type '${type.slug}'`,
    takenSlugs: (pattern) => slugsWhere(objects, { bucket_id: bucket._id, type: type.slug, locale, slug: pattern }),
    insert: async (slug) => {
      const d: ObjectDoc = {
        _id: new ObjectId(),
        bucket_id: bucket._id,
        type: type.slug,
        slug,
        title: input.title,
        content: input.content ?? '',
        locale,
        thumbnail: input.thumbnail ?? null,
        status,
        metadata,
        refs: collectRefs(type.metafields, metadata),
        order: input.order ?? now.getTime(),
        created_at: now,
        modified_at: now,
        published_at: status === 'published' ? now : null,
        created_by: null,
        modified_by: null,
      };
      await objects.insertOne(d);
      return d;
    },
  });
  await bumpGeneration(db, bucket._id);
  return doc;
}

export async function updateObject(db: Db, bucket: BucketDoc, id: string, body: unknown): Promise<ObjectDoc> {
  assertValid('ObjectPatch', body, 'body');
  const input = body as ObjectInput;
  const current = await getObject(db, bucket, id, 'any');
  const type = await typeForWrite(db, bucket, current.type);
  const now = new Date();
  const next: ObjectDoc = { ...current, modified_at: now };
  if (input.title !== undefined) next.title = input.title;
  if (input.slug !== undefined) next.slug = input.slug;
  if (input.content !== undefined) next.content = input.content;
  if (input.thumbnail !== undefined) next.thumbnail = input.thumbnail;
  if (input.order !== undefined) next.order = input.order;
  if (input.locale !== undefined) next.locale = resolveLocale(type, input.locale);
  if (input.metadata !== undefined) {
    next.metadata = { ...current.metadata, ...(await prepareMetadata(db, bucket, type, input.metadata, 'patch')) };
    next.refs = collectRefs(type.metafields, next.metadata);
  }
  if (input.status !== undefined) {
    if (input.status === 'published' && current.status !== 'published') next.published_at = now;
    next.status = input.status;
  }
  try {
    await objectsCollection(db).replaceOne({ _id: current._id, bucket_id: bucket._id }, next);
  } catch (err) {
    if (isDuplicateKey(err)) throw new BadRequestError(`Object of type '${type.slug}' with slug '${next.slug}' already exists`);
    throw err;
  }
  await bumpGeneration(db, bucket._id);
  return next;
}

export async function deleteObject(db: Db, bucket: BucketDoc, id: string): Promise<void> {
  const result = await objectsCollection(db).deleteOne({ _id: parseObjectId(bucket, id), bucket_id: bucket._id });
  if (result.deletedCount === 0) throw notFound(bucket, id);
  await bumpGeneration(db, bucket._id);
}
