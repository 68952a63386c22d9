import { ObjectId, type Db } from 'mongodb';
import { ensureSortableIndexes } from '../db/indexes.js';
import {
  objectsCollection,
  objectTypesCollection,
  publishedObjectsCollection,
  revisionsCollection,
  type BucketDoc,
  type ObjectTypeDoc,
} from '../db/collections.js';
import { SlugTakenError } from '../errors/domain-errors.js';
import { ValidationErrors } from '../errors/http-errors.js';
import { notFound } from '../errors/not-found.js';
import type { ObjectTypeCreate } from '../types/bodies.generated.js';
import { assertValid } from '../validation/ajv-messages.js';
import { checkMetafieldDefinitions } from '../validation/metafield-definitions.js';
import { bumpGeneration } from './bucket-generation.js';
import { applySingletonSwitch, checkSingletonSwitch } from './singletons.js';
import { insertWithUniqueSlug, slugify, slugsWhere } from './slugs.js';
import { readOptions } from './query-time-limit.js';

export async function listObjectTypes(db: Db, bucket: BucketDoc): Promise<ObjectTypeDoc[]> {
  return objectTypesCollection(db)
    .find({ bucket_id: bucket._id }, readOptions(db))
    .sort({ order: 1, _id: 1 })
    .toArray();
}

export async function findObjectType(db: Db, bucket: BucketDoc, slug: string): Promise<ObjectTypeDoc | null> {
  return objectTypesCollection(db).findOne({ bucket_id: bucket._id, slug }, readOptions(db));
}

export async function getObjectType(db: Db, bucket: BucketDoc, slug: string): Promise<ObjectTypeDoc> {
  const type = await findObjectType(db, bucket, slug);
  if (!type) throw notFound('object_type', slug, bucket.slug);
  return type;
}

async function typeSlugs(db: Db, bucket: BucketDoc): Promise<Set<string>> {
  return new Set(await slugsWhere(objectTypesCollection(db), { bucket_id: bucket._id }, readOptions(db)));
}

/** Rules across fields that the JSON Schemas cannot state, reported together. */
function checkTypeRules(
  merged: Required<Pick<ObjectTypeDoc, 'localization' | 'locales' | 'priority_locale' | 'metafields'>>,
  ownSlug: string,
  existing: Set<string>,
): void {
  const problems = new ValidationErrors();
  if (merged.localization && merged.locales.length === 0)
    problems.add('locales is required (non-empty) when localization is true');
  if (merged.priority_locale !== null && !merged.locales.includes(merged.priority_locale)) {
    problems.add(`priority_locale "${merged.priority_locale}" must be one of locales [${merged.locales.join(', ')}]`);
  }
  for (const p of checkMetafieldDefinitions(merged.metafields, { ownSlug, existingTypeSlugs: existing }))
    problems.add(p);
  problems.throwIfAny('Invalid object type', 'invalid_body');
}

function sortableKeys(type: ObjectTypeDoc): string[] {
  return type.metafields.filter((m) => m.sortable).map((m) => m.key);
}

type OptionFlag = NonNullable<ObjectTypeCreate['options']>['slug_field'];

function flag(v: OptionFlag, fallback: boolean): boolean {
  return v === undefined ? fallback : Boolean(v);
}

export async function createObjectType(db: Db, bucket: BucketDoc, input: unknown): Promise<ObjectTypeDoc> {
  assertValid('ObjectTypeCreate', input, 'body');
  const existing = await typeSlugs(db, bucket);
  const base = input.slug ?? slugify(input.title, 'object-type');
  const fields = {
    localization: input.localization ?? false,
    locales: input.locales ?? [],
    priority_locale: input.priority_locale ?? null,
    metafields: input.metafields ?? [],
  };
  checkTypeRules(fields, base, existing);
  const now = new Date();
  const last = await objectTypesCollection(db)
    .find({ bucket_id: bucket._id }, readOptions(db))
    .sort({ order: -1 })
    .limit(1)
    .next();
  const doc = await insertWithUniqueSlug({
    base,
    explicit: input.slug !== undefined,
    what: 'Object type',
    takenSlugs: (pattern) =>
      slugsWhere(objectTypesCollection(db), { bucket_id: bucket._id, slug: pattern }, readOptions(db)),
    insert: async (slug) => {
      const d: ObjectTypeDoc = {
        _id: new ObjectId(),
        bucket_id: bucket._id,
        slug,
        title: input.title,
        singular: input.singular ?? input.title,
        emoji: input.emoji ?? '',
        singleton: input.singleton ?? false,
        ...fields,
        options: {
          slug_field: flag(input.options?.slug_field, true),
          content_editor: flag(input.options?.content_editor, true),
        },
        preview_link: input.preview_link ?? '',
        extensions: input.extensions ?? null,
        order: input.order ?? (last ? last.order + 1 : 0),
        created_at: now,
        modified_at: now,
      };
      await objectTypesCollection(db).insertOne(d);
      return d;
    },
  });
  await ensureSortableIndexes(db, sortableKeys(doc));
  await bumpGeneration(db, bucket._id);
  return doc;
}

export async function updateObjectType(
  db: Db,
  bucket: BucketDoc,
  slug: string,
  input: unknown,
): Promise<ObjectTypeDoc> {
  assertValid('ObjectTypePatch', input, 'body');
  const current = await getObjectType(db, bucket, slug);
  const newSlug = input.slug ?? current.slug;
  const existing = await typeSlugs(db, bucket);
  existing.delete(current.slug);
  if (newSlug !== current.slug && existing.has(newSlug))
    throw new SlugTakenError(`Object type with slug '${newSlug}' already exists`);
  const merged: ObjectTypeDoc = {
    ...current,
    ...input,
    slug: newSlug,
    options: {
      slug_field: flag(input.options?.slug_field, current.options.slug_field),
      content_editor: flag(input.options?.content_editor, current.options.content_editor),
    },
    modified_at: new Date(),
  };
  checkTypeRules(merged, newSlug, existing);
  await checkSingletonSwitch(db, bucket, current, merged);
  await objectTypesCollection(db).replaceOne({ _id: current._id }, merged);
  await applySingletonSwitch(db, bucket, current, merged);
  if (newSlug !== current.slug) {
    for (const coll of [objectsCollection(db), publishedObjectsCollection(db)]) {
      await coll.updateMany({ bucket_id: bucket._id, type: current.slug }, { $set: { type: newSlug } });
    }
  }
  await ensureSortableIndexes(db, sortableKeys(merged));
  await bumpGeneration(db, bucket._id);
  return merged;
}

/** v3 semantics: the type's Objects go with it. */
export async function deleteObjectType(db: Db, bucket: BucketDoc, slug: string): Promise<void> {
  const current = await getObjectType(db, bucket, slug);
  for (const coll of [objectsCollection(db), publishedObjectsCollection(db), revisionsCollection(db)]) {
    await coll.deleteMany({ bucket_id: bucket._id, type: current.slug });
  }
  await objectTypesCollection(db).deleteOne({ _id: current._id });
  await bumpGeneration(db, bucket._id);
}
