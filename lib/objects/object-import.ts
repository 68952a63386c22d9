import type { ObjectId } from 'mongodb';
import {
  objectsCollection,
  revisionsCollection,
  type BucketDoc,
  type ObjectDoc,
  type ObjectTypeDoc,
  type RevisionDoc,
} from '../db/collections.js';
import { SlugTakenError } from '../errors/domain-errors.js';
import { isDuplicateKey } from '../errors/mongo-errors.js';
import { collectRefs } from '../metafields/stored-values.js';
import type { ObjectCreate } from '../types/bodies.generated.js';
import { reserve } from '../limits/usage-counters.js';
import { assertValid } from '../validation/ajv-messages.js';
import { prepareMetadata } from './write/object-metadata.js';
import { resolveLocale, type ObjectWriteDeps } from './write/object-writes.js';
import { repairObject } from './write/repair.js';
import { writeVersionWith } from './write/version-write.js';
import { CommitFailed } from '../db/write-batch.js';
import type { PlannedContent } from './write/planned-content.js';
import { readOptions } from '../db/service-db.js';
import { singletonKey, singletonRace } from './write/singletons.js';
import { slugify } from './write/slugs.js';
import { storedThumbnail } from './write/object-metadata.js';
import { assertStorable } from './write/stored-size.js';
import { typeWithOwn } from '../metafields/own.js';
import { ownMetafieldsAfter } from './own-metafields.js';

/** The body of one version: what POST /objects takes, ids and media names already the target's. */
export type VersionBody = Omit<ObjectCreate, 'type' | 'publish_at' | 'unpublish_at'>;

/** One version of an imported Object, as it was written in its source. */
export interface ImportVersion {
  /** Its modified_at, which its revision carries as created_at. */
  at: Date;
  reason: RevisionDoc['reason'];
  /** The version takes the live one down (a withdrawal, or a history that ends unpublished). */
  withdraw: boolean;
  body: VersionBody;
  published_at: Date | null;
  modified_by: string | null;
}

/** An Object to import with its history: versions oldest first, the last being the latest. */
export interface ImportedObject {
  id: ObjectId;
  type: string;
  created_at: Date;
  created_by: string | null;
  /** Scheduling state of the latest version; a time already past is done by the scheduler. */
  publish_at: Date | null;
  unpublish_at: Date | null;
  versions: ImportVersion[];
  /** Its own Metafields as its source had them, checked as a legacy body's are. */
  own_metafields?: unknown[];
}

export interface ImportContext {
  deps: ObjectWriteDeps;
  bucket: BucketDoc;
  type: ObjectTypeDoc;
  planned: PlannedContent;
  /** The Bucket's type slugs once the import's are made, which own relationship Metafields may name. */
  typeSlugs: ReadonlySet<string>;
}

/**
 * One version checked exactly as POST /objects checks a body (schema, locale, thumbnail, every
 * Metafield value, relationships and media, which may be `planned`), as the document to write,
 * which must fit in one stored document (stored-size.ts).
 * `root` names the record in messages.
 */
export async function checkImportVersion(
  ctx: ImportContext,
  object: ImportedObject,
  index: number,
  root: string,
): Promise<ObjectDoc> {
  const { deps, bucket, type, planned } = ctx;
  const version = object.versions[index];
  if (!version) throw new RangeError(`version ${index} of ${object.versions.length}`);
  const body: unknown = { ...version.body, type: object.type };
  assertValid('ObjectCreate', body, root);
  const locale = resolveLocale(type, body.locale);
  const thumbnail = await storedThumbnail(deps.db, bucket, body.thumbnail, planned);
  const own = object.own_metafields && ownMetafieldsAfter(type, undefined, object.own_metafields, ctx.typeSlugs);
  const effective = typeWithOwn(type, own);
  const metadata = await prepareMetadata(deps.db, deps.validators, bucket, effective, body.metadata, null, planned);
  const status = body.status ?? 'published';
  const latest = index === object.versions.length - 1;
  const doc: ObjectDoc = {
    _id: object.id,
    bucket_id: bucket._id,
    type: type.slug,
    slug: body.slug ?? slugify(body.title),
    title: body.title,
    content: body.content ?? '',
    locale,
    thumbnail: thumbnail ?? null,
    status,
    metadata,
    ...(own && { own_metafields: own }),
    refs: collectRefs(effective.metafields, metadata),
    order: body.order ?? object.created_at.getTime(),
    created_at: object.created_at,
    modified_at: version.at,
    published_at: version.published_at ?? (status === 'published' ? version.at : null),
    created_by: object.created_by,
    modified_by: version.modified_by,
    publish_at: latest ? object.publish_at : null,
    unpublish_at: latest ? object.unpublish_at : null,
  };
  const key = singletonKey(type, locale);
  if (key !== undefined) doc.singleton_key = key;
  // The check pass runs this too, so a version the database cannot take stops the import unwritten.
  assertStorable(doc);
  return doc;
}

/**
 * Writes an Object's versions through the one version write (write/version-write.ts), so each gets
 * its revision, generation bump and event as an API write would. Idempotent: a crashed earlier
 * run is repaired first, and versions its revisions already record are skipped, so rerunning
 * continues where it stopped. Returns how many versions this call wrote.
 */
export async function writeImportedObject(
  ctx: ImportContext,
  object: ImportedObject,
  root: string,
  onVersion: () => Promise<void> = () => Promise.resolve(),
): Promise<number> {
  const { deps, bucket } = ctx;
  await repairObject(deps, object.id);
  const last = await lastRevision(ctx, object.id);
  // A new Object takes a slot of the plan as a create through the API does, kept once it exists.
  const slot = last === null ? await reserve(deps.db, bucket, deps.plans, 'objects', 1) : null;
  let written = 0;
  try {
    for (let i = 0; i < object.versions.length; i++) {
      const version = object.versions[i];
      if (!version || (last && version.at.getTime() <= last.created_at.getTime())) continue;
      const doc = await checkImportVersion(ctx, object, i, root);
      const final = object.versions[object.versions.length - 1];
      await writeImportVersion(ctx, version, doc, i === object.versions.length - 1 ? null : (final?.body.slug ?? null));
      slot?.keep();
      written++;
      await onVersion();
    }
  } finally {
    await slot?.settle();
  }
  return written;
}

/** When the Object's newest version was written; null for an Object not written yet (the common case: one lookup by id). */
async function lastRevision({ deps, bucket }: ImportContext, id: ObjectId): Promise<{ created_at: Date } | null> {
  const options = readOptions(deps.db);
  if (!(await objectsCollection(deps.db).findOne({ _id: id }, { projection: { _id: 1 }, ...options }))) return null;
  // bucket_id first: the revisions index (object_history) leads with it.
  return revisionsCollection(deps.db).findOne(
    { bucket_id: bucket._id, object_id: id },
    { sort: { created_at: -1, _id: -1 }, projection: { created_at: 1 }, ...options },
  );
}

/**
 * One version, its commit (a replace, by id) first in the command of its follow-ups
 * (version-write.ts). An earlier version may carry a slug that another Object of the Bucket holds
 * by now (it took the slug later in the source); such a version is written under the Object's
 * final slug instead, as only latest versions hold slugs.
 */
async function writeImportVersion(
  ctx: ImportContext,
  version: ImportVersion,
  doc: ObjectDoc,
  fallbackSlug: string | null,
): Promise<void> {
  const objects = objectsCollection(ctx.deps.db);
  try {
    await writeVersionWith(
      { ...ctx.deps, request: null },
      {
        objectId: doc._id,
        bucketId: ctx.bucket._id,
        at: version.at,
        reason: version.reason,
        withdraw: version.withdraw,
        doc,
        commit: (work) => ({
          to: objects,
          model: { name: 'replaceOne', filter: { _id: doc._id }, replacement: { ...doc, pending: work }, upsert: true },
        }),
        // Kept apart from a follow-up's failure, after which the version stands.
        commitError: (failure) => new CommitFailed(failure),
      },
    );
  } catch (thrown) {
    if (!(thrown instanceof CommitFailed)) throw thrown;
    const err = thrown.failure;
    const singleton = singletonRace(err, ctx.type, doc.locale);
    if (singleton) throw singleton;
    if (!isDuplicateKey(err)) throw err;
    if (fallbackSlug !== null && fallbackSlug !== doc.slug)
      return writeImportVersion(ctx, version, { ...doc, slug: fallbackSlug }, null);
    throw new SlugTakenError(`Object of type '${doc.type}' with slug '${doc.slug}' already exists`);
  }
}
