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
import { BadRequestError, ValidationErrors } from '../errors/http-errors.js';
import { isDuplicateKey } from '../errors/mongo-errors.js';
import { notFound } from '../errors/not-found.js';
import { countRemoval, ensureUsage, reserve } from '../limits/usage-counters.js';
import type { ObjectTypeCreate } from '../types/bodies.generated.js';
import { assertValid } from '../validation/ajv-messages.js';
import { checkMetafieldDefinitions } from '../metafields/metafield-definitions.js';
import { finishChange, finishWrite, type EventDeps } from '../events/domain-events.js';
import { removeObjectsOfType } from '../objects/write/object-delete.js';
import { applySingletonSwitch, checkSingletonSwitch } from '../objects/write/singletons.js';
import { completeRename, finishPendingRenames } from './object-type-rename.js';
import { insertWithUniqueSlug, slugify, slugsWhere } from '../objects/write/slugs.js';
import { readOptions } from '../db/service-db.js';
import { findObjectType, getObjectType, listObjectTypes } from '../store/type-reads.js';
import { referencesTo, renameReferences } from '../metafields/type-references.js';
import { withTypeWriteLease } from './type-write-lease.js';
import { ifMatchAccepts, versionConflict, versionOf, type IfMatch } from '../http/if-match.js';
import { nextVersionTime } from '../http/if-match.js';

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

export async function createObjectType(deps: EventDeps, bucket: BucketDoc, input: unknown): Promise<ObjectTypeDoc> {
  assertValid('ObjectTypeCreate', input, 'body');
  const { db } = deps;
  return withTypeWriteLease(db, bucket._id, async (lease) => {
    await finishPendingRenames(db, bucket._id, lease);
    const doc = await insertObjectType(deps, bucket, input);
    await finishChange(deps, bucket, { type: 'object_type.created', doc });
    return doc;
  });
}

/**
 * A type body checked as POST /object-types checks it: its schema, then the rules across fields
 * (locales, Metafield definitions against the Bucket's other type slugs `existing`).
 */
export function checkObjectTypeBody(input: unknown, existing: Set<string>, root = 'body'): ObjectTypeCreate {
  assertValid('ObjectTypeCreate', input, root);
  const base = input.slug ?? slugify(input.title, 'object-type');
  checkTypeRules(typeFields(input), base, existing);
  return input;
}

function typeFields(input: ObjectTypeCreate) {
  return {
    localization: input.localization ?? false,
    locales: input.locales ?? [],
    priority_locale: input.priority_locale ?? null,
    metafields: input.metafields ?? [],
  };
}

/** The stored document a checked body makes, with the defaults of every field it leaves out. */
export function newObjectTypeDoc(
  bucketId: ObjectId,
  input: ObjectTypeCreate,
  slug: string,
  order: number,
  now: Date,
): ObjectTypeDoc {
  return {
    _id: new ObjectId(),
    bucket_id: bucketId,
    slug,
    title: input.title,
    singular: input.singular ?? input.title,
    emoji: input.emoji ?? '',
    singleton: input.singleton ?? false,
    ...typeFields(input),
    options: {
      slug_field: flag(input.options?.slug_field, true),
      content_editor: flag(input.options?.content_editor, true),
    },
    preview_link: input.preview_link ?? '',
    extensions: input.extensions ?? null,
    order: input.order ?? order,
    created_at: now,
    modified_at: now,
  };
}

async function insertObjectType(deps: EventDeps, bucket: BucketDoc, input: ObjectTypeCreate): Promise<ObjectTypeDoc> {
  const { db } = deps;
  const existing = await typeSlugs(db, bucket);
  const base = input.slug ?? slugify(input.title, 'object-type');
  checkTypeRules(typeFields(input), base, existing);
  const now = new Date();
  const last = await objectTypesCollection(db)
    .find({ bucket_id: bucket._id }, readOptions(db))
    .sort({ order: -1 })
    .limit(1)
    .next();
  const slot = await reserve(db, bucket, deps.plans, 'object_types', 1);
  const doc = await insertWithUniqueSlug({
    base,
    explicit: input.slug !== undefined,
    what: 'Object type',
    takenSlugs: (pattern) =>
      slugsWhere(objectTypesCollection(db), { bucket_id: bucket._id, slug: pattern }, readOptions(db)),
    insert: async (slug) => {
      const d = newObjectTypeDoc(bucket._id, input, slug, last ? last.order + 1 : 0, now);
      await objectTypesCollection(db).insertOne(d);
      slot.keep();
      return d;
    },
  }).finally(() => slot.settle());
  await ensureSortableIndexes(db, sortableKeys(doc));
  return doc;
}

/**
 * The type a PATCH addresses. Failing that, the type this same PATCH already renamed away from
 * `slug` (its response lost, or the process gone mid-rename), so that retrying it completes.
 */
async function typeToPatch(db: Db, bucket: BucketDoc, slug: string, newSlug: string | undefined) {
  const type = await findObjectType(db, bucket, slug);
  if (type || newSlug === undefined) return type;
  return objectTypesCollection(db).findOne(
    { bucket_id: bucket._id, slug: newSlug, 'rename.from': slug },
    readOptions(db),
  );
}

export async function updateObjectType(
  deps: EventDeps,
  bucket: BucketDoc,
  slug: string,
  input: unknown,
  /** The request's If-Match: the type is changed only over a version it names (lib/http/if-match.ts). */
  ifMatch: IfMatch | null = null,
): Promise<ObjectTypeDoc> {
  assertValid('ObjectTypePatch', input, 'body');
  const { db } = deps;
  return withTypeWriteLease(db, bucket._id, async (lease) => {
    await finishPendingRenames(db, bucket._id, lease);
    const current = await typeToPatch(db, bucket, slug, input.slug);
    if (!current) throw notFound('object_type', slug, bucket.slug);
    // Type writes hold the lease, so the version checked here is the one replaced below.
    if (ifMatch && !ifMatchAccepts(ifMatch, versionOf(current)))
      throw versionConflict(`Object type '${current.slug}'`, current);
    const newSlug = input.slug ?? current.slug;
    const renaming = newSlug !== current.slug;
    const existing = await typeSlugs(db, bucket);
    existing.delete(current.slug);
    if (renaming && existing.has(newSlug))
      throw new SlugTakenError(`Object type with slug '${newSlug}' already exists`);
    const metafields = input.metafields ?? current.metafields;
    const merged: ObjectTypeDoc = {
      ...current,
      ...input,
      slug: newSlug,
      // After a rename nothing names the old slug, the type's own Metafields included.
      metafields: renaming ? (renameReferences(metafields, current.slug, newSlug) ?? metafields) : metafields,
      options: {
        slug_field: flag(input.options?.slug_field, current.options.slug_field),
        content_editor: flag(input.options?.content_editor, current.options.content_editor),
      },
      // Strictly after the version replaced, so each version of the type has its own tag.
      modified_at: nextVersionTime(current),
      ...(renaming ? { rename: { from: current.slug, pending: true } } : {}),
    };
    checkTypeRules(merged, newSlug, existing);
    await checkSingletonSwitch(db, bucket, current, merged);
    lease.assertHeld();
    // Conditional on the slug it was read with: only a process ignoring the lease (an older version
    // mid-deploy) could change it meanwhile, and then this write must not undo that one.
    const replaced = await objectTypesCollection(db)
      .replaceOne({ _id: current._id, bucket_id: current.bucket_id, slug: current.slug }, merged)
      .catch((err: unknown) => {
        if (isDuplicateKey(err)) throw new SlugTakenError(`Object type with slug '${newSlug}' already exists`);
        throw err;
      });
    if (replaced.matchedCount === 0) throw notFound('object_type', slug, bucket.slug);
    await applySingletonSwitch(db, bucket, current, merged);
    if (renaming) await completeRename(db, merged, lease);
    await ensureSortableIndexes(db, sortableKeys(merged));
    const doc = renaming ? { ...merged, rename: { from: current.slug, pending: false } } : merged;
    await finishChange(deps, bucket, { type: 'object_type.edited', doc });
    return doc;
  });
}

/** "posts (author, seo.editor)" for every other type whose relationship Metafields name `slug`. */
async function typesReferring(db: Db, bucket: BucketDoc, type: ObjectTypeDoc): Promise<string[]> {
  const users: string[] = [];
  for (const other of await listObjectTypes(db, bucket)) {
    const paths = other._id.equals(type._id) ? [] : referencesTo(other.metafields, type.slug);
    if (paths.length > 0) users.push(`${other.slug} (${paths.join(', ')})`);
  }
  return users;
}

/**
 * v3 semantics: the type's Objects go with it. A type other types relate to stays until they no
 * longer do. `notify` (the request's trigger_webhook) also makes each Object emit object.deleted.
 */
/**
 * What happens to the Objects of a deleted type: v3 deletes them with it; a legacy route whose
 * clients were promised their Objects stay (v1 and v2) deletes only an empty type, since Objects
 * without a type could not be validated, rendered or filtered by it.
 */
export type TypeObjects = 'delete' | 'refuse';

async function refuseIfObjects(db: Db, bucket: BucketDoc, slug: string): Promise<void> {
  const count = await objectsCollection(db).countDocuments({ bucket_id: bucket._id, type: slug }, readOptions(db));
  if (count === 0) return;
  throw new BadRequestError(
    `Object type '${slug}' still has ${String(count)} Object${count === 1 ? '' : 's'}, and this route keeps ` +
      `the Objects of a deleted type, which this service cannot do: delete them first, or delete the type ` +
      `with DELETE /v3/buckets/${bucket.slug}/object-types/${slug}, which deletes its Objects with it`,
    'type_has_objects',
  );
}

export async function deleteObjectType(
  deps: EventDeps,
  bucket: BucketDoc,
  slug: string,
  notify: boolean,
  objects: TypeObjects = 'delete',
): Promise<void> {
  const { db } = deps;
  await withTypeWriteLease(db, bucket._id, async (lease) => {
    await finishPendingRenames(db, bucket._id, lease);
    const current = await getObjectType(db, bucket, slug);
    const problems = new ValidationErrors();
    for (const user of await typesReferring(db, bucket, current)) problems.add(user);
    problems.throwIfAny(
      `Object type '${slug}' cannot be deleted while relationship Metafields of other Object types name it; ` +
        'retarget or remove them first',
      'type_in_use',
    );
    // Checked under the lease; an Object created in the instant before the delete still goes with the type.
    if (objects === 'refuse') await refuseIfObjects(db, bucket, slug);
    // Objects first, the type last: a crash in between leaves the type, and a retry finishes.
    await removeObjectsOfType(deps, bucket, current.slug, notify, () => {
      lease.assertHeld();
    });
    // Live copies and revisions no latest version owns any more (left by an older version's crash).
    for (const coll of [publishedObjectsCollection(db), revisionsCollection(db)]) {
      lease.assertHeld();
      await coll.deleteMany({ bucket_id: bucket._id, type: current.slug });
    }
    const event = notify ? [await deps.events.describe(db, bucket, { type: 'object_type.deleted', doc: current })] : [];
    await ensureUsage(db, bucket._id);
    const { deletedCount } = await objectTypesCollection(db).deleteOne({ _id: current._id });
    await countRemoval(db, bucket._id, 'object_types', deletedCount);
    await finishWrite(deps, bucket._id, event);
  });
}
