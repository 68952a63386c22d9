import type { Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { mediaCollection } from '../store/media.js';
import { mediaFoldersCollection, type MediaFolderDoc } from './folders-collection.js';
import { BadRequestError } from '../errors/http-errors.js';
import { notFound } from '../errors/not-found.js';
import { readOptions } from '../db/service-db.js';

/**
 * A folder as the API answers it. The folders of a Bucket are its declared folders plus every
 * slug its media name without a declaration (media stored before folders were a resource, or
 * imported): those keep working as they did, listed with a null id and their slug as title.
 */
export interface MediaFolderView {
  id: string | null;
  slug: string;
  title: string;
  media_count: number;
  created_at: string | null;
  modified_at: string | null;
}

export function folderView(slug: string, doc: MediaFolderDoc | null, count: number): MediaFolderView {
  return {
    id: doc ? doc._id.toHexString() : null,
    slug,
    title: doc ? doc.title : slug,
    media_count: count,
    created_at: doc ? doc.created_at.toISOString() : null,
    modified_at: doc ? doc.modified_at.toISOString() : null,
  };
}

/**
 * Finishes renames that stopped after the folder took its new slug but before its media did
 * (the two are separate writes): their media are moved now, and the marker dropped.
 */
export async function finishPendingMoves(db: Db, bucket: BucketDoc): Promise<void> {
  const pending = await mediaFoldersCollection(db)
    .find({ bucket_id: bucket._id, moving_from: { $exists: true } }, readOptions(db))
    .toArray();
  for (const doc of pending) {
    if (doc.moving_from === undefined) continue;
    await moveMedia(db, bucket, doc.moving_from, doc.slug);
    await mediaFoldersCollection(db).updateOne({ _id: doc._id }, { $unset: { moving_from: '' } });
  }
}

/** Moves every media item of folder `from` into folder `to`; answers how many moved. */
export async function moveMedia(db: Db, bucket: BucketDoc, from: string, to: string): Promise<number> {
  const res = await mediaCollection(db).updateMany(
    { bucket_id: bucket._id, folder: from },
    { $set: { folder: to, modified_at: new Date() } },
  );
  return res.modifiedCount;
}

/** How many media items name `slug` as their folder. */
export function mediaCountIn(db: Db, bucket: BucketDoc, slug: string): Promise<number> {
  return mediaCollection(db).countDocuments({ bucket_id: bucket._id, folder: slug }, readOptions(db));
}

/** Media counts by folder slug, of every folder some media item names. */
async function countsByFolder(db: Db, bucket: BucketDoc): Promise<Map<string, number>> {
  const rows = await mediaCollection(db)
    .aggregate<{ _id: unknown; n: number }>(
      [
        { $match: { bucket_id: bucket._id, folder: { $type: 'string' } } },
        { $group: { _id: '$folder', n: { $sum: 1 } } },
      ],
      readOptions(db),
    )
    .toArray();
  return new Map(rows.filter((r) => typeof r._id === 'string' && r._id !== '').map((r) => [r._id as string, r.n]));
}

/** Every folder of the Bucket, declared or only named by media, ordered by slug. */
export async function listFolders(db: Db, bucket: BucketDoc): Promise<MediaFolderView[]> {
  await finishPendingMoves(db, bucket);
  const [declared, counts] = await Promise.all([
    mediaFoldersCollection(db).find({ bucket_id: bucket._id }, readOptions(db)).toArray(),
    countsByFolder(db, bucket),
  ]);
  const bySlug = new Map(declared.map((d) => [d.slug, d]));
  const slugs = [...new Set([...bySlug.keys(), ...counts.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return slugs.map((s) => folderView(s, bySlug.get(s) ?? null, counts.get(s) ?? 0));
}

/** The declaration of `slug` (null for a folder only media name) and its media count; 404 when neither. */
export async function findFolder(
  db: Db,
  bucket: BucketDoc,
  slug: string,
): Promise<{ doc: MediaFolderDoc | null; count: number }> {
  const [doc, count] = await Promise.all([
    mediaFoldersCollection(db).findOne({ bucket_id: bucket._id, slug }, readOptions(db)),
    mediaCountIn(db, bucket, slug),
  ]);
  if (!doc && count === 0) throw notFound('media_folder', slug, bucket.slug);
  return { doc, count };
}

export async function getFolder(db: Db, bucket: BucketDoc, slug: string): Promise<MediaFolderView> {
  await finishPendingMoves(db, bucket);
  const { doc, count } = await findFolder(db, bucket, slug);
  return folderView(slug, doc, count);
}

/** Whether `slug` is one of the Bucket's folders: declared, or named by some media item. */
export async function folderExists(db: Db, bucket: BucketDoc, slug: string): Promise<boolean> {
  const options = readOptions(db);
  const declared = await mediaFoldersCollection(db).findOne(
    { bucket_id: bucket._id, slug },
    { projection: { _id: 1 }, ...options },
  );
  if (declared) return true;
  const named = await mediaCollection(db).findOne(
    { bucket_id: bucket._id, folder: slug },
    { projection: { _id: 1 }, ...options },
  );
  return named !== null;
}

/**
 * Refuses a folder the Bucket does not have, naming it: uploads, media edits and a delete's
 * `move_to` put media only into listed folders. `at` says where the slug came from.
 */
export async function assertFolderExists(db: Db, bucket: BucketDoc, slug: string, at: string): Promise<void> {
  if (await folderExists(db, bucket, slug)) return;
  throw new BadRequestError(
    `Unknown folder '${slug}' (${at}): bucket '${bucket.slug}' has no such media folder; ` +
      `create it first with POST /v3/buckets/${bucket.slug}/media-folders`,
    'folder_unknown',
  );
}
