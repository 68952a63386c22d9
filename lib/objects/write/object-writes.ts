import type { ForRequest } from '../../http/respond.js';
import { ObjectId } from 'mongodb';
import { objectsCollection, type BucketDoc, type ObjectDoc, type ObjectTypeDoc } from '../../db/collections.js';
import { SlugTakenError } from '../../errors/domain-errors.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { isDuplicateKey } from '../../errors/mongo-errors.js';
import { collectRefs } from '../../metafields/stored-values.js';
import type { ObjectCreate, ObjectPatch } from '../../types/bodies.generated.js';
import { reserve, type Reservation } from '../../limits/usage-counters.js';
import { effectivePlan, limitOf, UNLIMITED } from '../../config/plan.js';
import { assertValid } from '../../validation/ajv-messages.js';
import type { MetadataValidators } from '../../metafields/metadata-schema.js';
import type { EventDeps } from '../../events/domain-events.js';
import { prepareMetadata } from './object-metadata.js';
import { keyRace, objectIdempotencyKey, objectOfKey, type CreateIdempotency } from './object-idempotency.js';
import { editObject, type EditPlan } from './object-edit.js';
import { typeForWrite } from '../objects.js';
import { writeVersionWith } from './version-write.js';
import { parseScheduleTime } from './object-metadata.js';
import { insertWithUniqueSlug, slugify, slugsWhere } from './slugs.js';
import { readOptions } from '../../db/service-db.js';
import type { VersionMemoDeps } from './version-memo.js';
import { assertSingletonFree, singletonKey, singletonRace } from './singletons.js';
import { storedThumbnail } from './object-metadata.js';
import type { Metafield } from '../../types/metafield.js';
import { typeWithOwn } from '../../metafields/own.js';
import { ownMetafieldsAfter } from '../own-metafields.js';
import type { VersionGuard } from '../../http/if-match.js';

/** Localized types take one of their locales (default: priority_locale); others take none. */
export function resolveLocale(type: ObjectTypeDoc, requested: string | null | undefined): string | null {
  if (!type.localization) {
    if (requested)
      throw new BadRequestError(
        `Object type "${type.slug}" is not localized: locale "${requested}" is not allowed`,
        'invalid_body',
      );
    return null;
  }
  const locale = requested ?? type.priority_locale ?? null;
  if (locale === null)
    throw new BadRequestError(
      `Object type "${type.slug}" is localized: locale is required (one of ${type.locales.join(', ')})`,
      'invalid_body',
    );
  if (!type.locales.includes(locale))
    throw new BadRequestError(
      `locale "${locale}" is not one of the locales of type "${type.slug}": ${type.locales.join(', ')}`,
      'invalid_body',
    );
  return locale;
}

/**
 * A scheduled publish keeps the Object a draft until its time, so `status: "published"`
 * together with a future `publish_at` contradicts itself.
 */
function scheduledStatus(input: ObjectCreate | ObjectPatch, publishAt: Date | null | undefined): void {
  if (publishAt && input.status === 'published') {
    throw new BadRequestError(
      'publish_at schedules a later publish: send status "draft" or leave status out',
      'invalid_body',
    );
  }
}

/** The Object's own Metafields after the write: as they are, unless a legacy body sent definitions. */
async function ownAfter(
  deps: ObjectWriteDeps,
  bucket: BucketDoc,
  type: ObjectTypeDoc,
  current: Metafield[] | undefined,
  definitions: readonly unknown[] | undefined,
): Promise<Metafield[] | undefined> {
  if (definitions === undefined) return current;
  const slugs = new Set((await deps.events.types.of(deps.db, bucket)).keys());
  return ownMetafieldsAfter(type, current, definitions, slugs);
}

/** What an Object write needs besides its input: the database, the app's validators and event seam. */
export interface ObjectWriteDeps extends EventDeps, VersionMemoDeps {
  validators: MetadataValidators;
}

export interface WriteOptions {
  /** Where the body sits in messages: "body" for a request (default), "object" in a batch operation. */
  root?: string;
  /** Whether the write emits its event (default true; legacy routes pass their trigger_webhook). */
  notify?: boolean;
  /**
   * A legacy body's `metafields` array (values in v3 form): keys the type lacks become the
   * Object's own Metafields (own-metafields.ts). v3 bodies send none.
   */
  definitions?: readonly unknown[] | undefined;
}

export interface CreateOptions extends WriteOptions {
  /** The request's Idempotency-Key: an Object an earlier attempt created with it answers instead. */
  idempotency?: CreateIdempotency | undefined;
}

export async function createObject(
  deps: ObjectWriteDeps & ForRequest,
  bucket: BucketDoc,
  input: unknown,
  { root = 'body', notify, idempotency, definitions }: CreateOptions = {},
): Promise<ObjectDoc> {
  const { db, validators } = deps;
  assertValid('ObjectCreate', input, root);
  // Before every check an earlier attempt passed: its Object may have taken a singleton's place.
  const earlier = idempotency ? await objectOfKey(deps, bucket, idempotency) : null;
  if (earlier) return earlier;
  const now = new Date();
  const publishAt = parseScheduleTime('publish_at', input.publish_at, now);
  const unpublishAt = parseScheduleTime('unpublish_at', input.unpublish_at, now);
  scheduledStatus(input, publishAt);
  const type = await typeForWrite(deps, bucket, input.type);
  const locale = resolveLocale(type, input.locale);
  await assertSingletonFree(db, bucket, type, locale);
  const thumbnail = await storedThumbnail(db, bucket, input.thumbnail);
  const own = await ownAfter(deps, bucket, type, undefined, definitions);
  const effective = typeWithOwn(type, own);
  const metadata = await prepareMetadata(db, validators, bucket, effective, input.metadata, null);
  const status = publishAt ? 'draft' : (input.status ?? 'published');
  const objects = objectsCollection(db);
  // The plan's slot is taken, and given back unless the commit happened: before anything is
  // written when the plan limits Objects, beside the insert when it cannot refuse.
  const slot = reservation(deps, bucket);
  if (slot.limited) await slot.taken;
  // Step order and why: see version-write.ts.
  const objectId = new ObjectId();
  // Set from the write's callback: control flow alone would take it for always false.
  const insertion = { committed: false };
  const insert = async (slug: string) => {
    const d: ObjectDoc = {
      _id: objectId,
      bucket_id: bucket._id,
      type: type.slug,
      slug,
      title: input.title,
      content: input.content ?? '',
      locale,
      thumbnail: thumbnail ?? null,
      status,
      metadata,
      ...(own && { own_metafields: own }),
      refs: collectRefs(effective.metafields, metadata),
      order: input.order ?? now.getTime(),
      created_at: now,
      modified_at: now,
      published_at: status === 'published' ? now : null,
      created_by: deps.request?.actor ?? null,
      modified_by: deps.request?.actor ?? null,
      publish_at: publishAt ?? null,
      unpublish_at: unpublishAt ?? null,
    };
    const key = singletonKey(type, locale);
    if (key !== undefined) d.singleton_key = key;
    if (idempotency) {
      d.idempotency_key = objectIdempotencyKey(bucket, idempotency.key);
      d.idempotency_request = idempotency.request;
    }
    // The insert goes first in the command of its follow-ups; one refused by a unique index stops it there.
    const written = await writeVersionWith(deps, {
      objectId,
      bucketId: bucket._id,
      bucket,
      at: now,
      reason: 'create',
      doc: d,
      commit: (work) => ({ to: objects, model: { name: 'insertOne', document: { ...d, pending: work } } }),
      // Not a duplicate key to the slug retry: another create took the singleton's place or the key.
      commitError: (err) => singletonRace(err, type, locale) ?? keyRace(err, idempotency) ?? err,
      committed: () => (insertion.committed = true),
      ...(notify !== undefined && { notify }),
    });
    // An insert finds no version in place to miss, so it always writes or throws.
    if (!written) throw new Error(`the insert of Object ${objectId.toHexString()} wrote nothing`);
    // Its first edit (a save right after the create, say) merges into it without reading it.
    deps.versions?.remember(bucket, written.doc);
    return written.doc;
  };
  try {
    return await insertWithUniqueSlug({
      base: input.slug ?? slugify(input.title),
      explicit: input.slug !== undefined,
      what: `Object of type '${type.slug}'`,
      takenSlugs: (pattern) =>
        slugsWhere(objects, { bucket_id: bucket._id, type: type.slug, locale, slug: pattern }, readOptions(db)),
      insert,
    });
  } finally {
    const taken = await slot.taken;
    if (insertion.committed) taken.keep();
    await taken.settle();
  }
}

/**
 * The create's share of the plan, asked for now. Without a limit on Objects the reservation only
 * counts, so nothing need wait for it: it runs beside the insert, in the same round trip.
 */
function reservation(deps: ObjectWriteDeps, bucket: BucketDoc): { limited: boolean; taken: Promise<Reservation> } {
  const limited = limitOf(effectivePlan(bucket.plan, deps.plans ?? UNLIMITED), 'objects') !== null;
  const taken = reserve(deps.db, bucket, deps.plans, 'objects', 1);
  // Awaited before the insert (limited) or after it; never left to reject unobserved meanwhile.
  taken.catch(() => undefined);
  return { limited, taken };
}

/**
 * PATCH semantics. Sent properties change the latest version; within metadata only sent keys.
 * `status: "published"` publishes the result (alone: the latest draft as it stands);
 * `status: "draft"` saves the result as a draft and leaves the live version as it was;
 * no status edits the latest version in place, which is also the live one when it is published.
 */
export async function updateObject(
  deps: ObjectWriteDeps & ForRequest,
  bucket: BucketDoc,
  id: string,
  input: unknown,
  {
    root = 'body',
    notify,
    ifVersion,
    definitions,
    current,
  }: WriteOptions & { ifVersion?: VersionGuard | undefined; current?: Promise<ObjectDoc | null> | undefined } = {},
): Promise<ObjectDoc> {
  const { db, validators } = deps;
  assertValid('ObjectPatch', input, root);
  const now = new Date();
  const publishAt = parseScheduleTime('publish_at', input.publish_at, now);
  const unpublishAt = parseScheduleTime('unpublish_at', input.unpublish_at, now);
  scheduledStatus(input, publishAt);
  const written = await editObject(
    deps,
    bucket,
    id,
    async (current, at): Promise<EditPlan> => {
      if (ifVersion && !ifVersion.accepts(current)) throw ifVersion.otherwise(current);
      const type = await typeForWrite(deps, bucket, current.type);
      const next: ObjectDoc = { ...current, modified_at: at };
      if (input.title !== undefined) next.title = input.title;
      if (input.slug !== undefined) next.slug = input.slug;
      if (input.content !== undefined) next.content = input.content;
      const thumbnail = await storedThumbnail(db, bucket, input.thumbnail);
      if (thumbnail !== undefined) next.thumbnail = thumbnail;
      if (input.order !== undefined) next.order = input.order;
      if (input.locale !== undefined) next.locale = resolveLocale(type, input.locale);
      if (next.locale !== current.locale) {
        await assertSingletonFree(db, bucket, type, next.locale, current._id);
        const key = singletonKey(type, next.locale);
        if (key === undefined) delete next.singleton_key;
        else next.singleton_key = key;
      }
      const own = await ownAfter(deps, bucket, type, current.own_metafields, definitions);
      if (own) next.own_metafields = own;
      const effective = typeWithOwn(type, own);
      // Every write judges the whole metadata by the type as it is now (a Metafield made required later).
      next.metadata = await prepareMetadata(db, validators, bucket, effective, input.metadata, current.metadata);
      next.refs = collectRefs(effective.metafields, next.metadata);
      if (publishAt !== undefined) next.publish_at = publishAt;
      if (unpublishAt !== undefined) next.unpublish_at = unpublishAt;
      if (publishAt) next.status = 'draft';
      else if (input.status !== undefined) next.status = input.status;
      const publishing = input.status === 'published';
      if (publishing) {
        next.published_at = at;
        next.publish_at = null;
      }
      const commitError = (err: unknown): unknown => {
        const singleton = singletonRace(err, type, next.locale);
        if (singleton) return singleton;
        if (isDuplicateKey(err))
          return new SlugTakenError(`Object of type '${type.slug}' with slug '${next.slug}' already exists`);
        return err;
      };
      return { next, reason: publishing ? 'publish' : 'edit', commitError };
    },
    { ...(notify !== undefined && { notify }), ...(current && { current }) },
  );
  return written.doc;
}
