import type { Db, ObjectId } from 'mongodb';
import { objectsCollection, type BucketDoc, type ObjectTypeDoc } from '../../db/collections.js';
import { SINGLETON_INDEX } from '../../db/indexes.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { isDuplicateKeyOn } from '../../errors/mongo-errors.js';
import { readOptions } from '../../db/service-db.js';

/**
 * A singleton type holds one Object per locale (one in all when it is not localized).
 *
 * Without transactions a count before the insert cannot stop two creates racing, so each Object
 * of a singleton type carries `singleton_key` (type id + locale) under a sparse unique index
 * (SINGLETON_INDEX): the insert itself takes the place, and a crash cannot leave a place taken
 * by no Object as a separate claim document could. The type's _id, not its slug, keeps keys
 * valid across renames. A read before the write still runs: it gives the common case its answer
 * without a marker, and covers Objects stored before the key existed.
 */
type SingletonType = Pick<ObjectTypeDoc, '_id' | 'slug' | 'singleton'>;

function keyOf(type: SingletonType, locale: string | null): string {
  // A hex id has a fixed length, so the separator cannot be confused with part of a locale.
  return `${type._id.toHexString()}:${locale ?? ''}`;
}

/** The key an Object of `type` in `locale` carries; undefined for types that are not singletons. */
export function singletonKey(type: SingletonType, locale: string | null): string | undefined {
  return type.singleton ? keyOf(type, locale) : undefined;
}

function inLocale(locale: string | null): string {
  return locale === null ? '' : ` in locale '${locale}'`;
}

export function singletonTaken(type: SingletonType, locale: string | null): BadRequestError {
  return new BadRequestError(
    `Object type '${type.slug}' is a singleton: it already has an Object${inLocale(locale)}; edit that Object instead`,
    'singleton_taken',
  );
}

/** A write's duplicate-key error on the singleton index, as the 400 it means; null for any other error. */
export function singletonRace(err: unknown, type: SingletonType, locale: string | null): BadRequestError | null {
  return isDuplicateKeyOn(err, SINGLETON_INDEX) ? singletonTaken(type, locale) : null;
}

/** Refuses to put an Object of a singleton `type` in `locale` when another (not `self`) is there. */
export async function assertSingletonFree(
  db: Db,
  bucket: BucketDoc,
  type: SingletonType,
  locale: string | null,
  self?: ObjectId,
): Promise<void> {
  if (!type.singleton) return;
  const other = await objectsCollection(db).findOne(
    { bucket_id: bucket._id, type: type.slug, locale, ...(self && { _id: { $ne: self } }) },
    { projection: { _id: 1 }, ...readOptions(db) },
  );
  if (other) throw singletonTaken(type, locale);
}

/** The type's Objects whichever of its two slugs they carry while a rename is under way. */
function objectsOf(bucket: BucketDoc, before: ObjectTypeDoc, after: ObjectTypeDoc) {
  return { bucket_id: bucket._id, type: { $in: [...new Set([before.slug, after.slug])] } };
}

/**
 * Before a type becomes a singleton: refused while a locale holds several of its Objects, since
 * choosing which to delete is the client's call. Runs before the type is saved.
 */
export async function checkSingletonSwitch(
  db: Db,
  bucket: BucketDoc,
  before: ObjectTypeDoc,
  after: ObjectTypeDoc,
): Promise<void> {
  if (before.singleton || !after.singleton) return;
  const crowded = await objectsCollection(db)
    .aggregate<{ _id: string | null; n: number }>(
      [
        { $match: objectsOf(bucket, before, after) },
        { $group: { _id: '$locale', n: { $sum: 1 } } },
        { $match: { n: { $gt: 1 } } },
        { $sort: { _id: 1 } },
        { $limit: 10 },
      ],
      readOptions(db),
    )
    .toArray();
  if (crowded.length === 0) return;
  const counts = crowded.map((c) => `${String(c.n)} Objects${inLocale(c._id)}`).join(', ');
  throw new BadRequestError(
    `Object type '${before.slug}' cannot be made a singleton: it has ${counts}; delete all but one${after.localization ? ' per locale' : ''} first`,
    'singleton_taken',
  );
}

/**
 * After the type is saved: a new singleton's Objects (at most one per locale, checked above) take
 * their keys, so creates from now on meet the index; a type that stops being one frees them.
 */
export async function applySingletonSwitch(
  db: Db,
  bucket: BucketDoc,
  before: ObjectTypeDoc,
  after: ObjectTypeDoc,
): Promise<void> {
  if (before.singleton === after.singleton) return;
  const objects = objectsCollection(db);
  // Neither moves modified_at: edits from a kept version never write the field (version-memo.ts).
  if (!after.singleton) {
    await objects.updateMany(objectsOf(bucket, before, after), { $unset: { singleton_key: '' } });
    return;
  }
  const holders = await objects
    .find(objectsOf(bucket, before, after), { projection: { locale: 1 }, ...readOptions(db) })
    .toArray();
  for (const o of holders) {
    try {
      await objects.updateOne({ _id: o._id }, { $set: { singleton_key: keyOf(after, o.locale) } });
    } catch (err) {
      throw singletonRace(err, after, o.locale) ?? err;
    }
  }
}
