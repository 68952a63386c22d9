import { ObjectId, type Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { mediaFoldersCollection, type MediaFolderDoc } from './folders-collection.js';
import { SlugTakenError } from '../errors/domain-errors.js';
import { BadRequestError } from '../errors/http-errors.js';
import { isDuplicateKey } from '../errors/mongo-errors.js';
import { notFound } from '../errors/not-found.js';
import { bumpGeneration } from '../cache/bucket-generation.js';
import { slugify } from '../objects/write/slugs.js';
import { assertValid } from '../validation/ajv-messages.js';
import {
  assertFolderExists,
  findFolder,
  folderExists,
  finishPendingMoves,
  folderView,
  mediaCountIn,
  moveMedia,
  type MediaFolderView,
} from './folder-reads.js';

const taken = (slug: string) => new SlugTakenError(`Folder with slug '${slug}' already exists`);

/** Runs a write under the unique slug index: its duplicate-key failure is the caller's 400. */
async function underUniqueSlug<T>(slug: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isDuplicateKey(err)) throw taken(slug);
    throw err;
  }
}

/**
 * A new folder, its slug sent or derived from the title. A slug the Bucket already declares is
 * refused (400 slug_taken, as other duplicate slugs are), never suffixed: a second folder of the
 * same name is a mistake more often than a wish. A slug only media name is declared by this.
 */
export async function createFolder(db: Db, bucket: BucketDoc, input: unknown): Promise<MediaFolderView> {
  assertValid('MediaFolderCreate', input, 'body');
  const title = input.title.trim();
  const slug = input.slug ?? slugify(title, '');
  if (slug === '')
    throw new BadRequestError(
      `Invalid request body: body.title ${JSON.stringify(title)} has no letter or digit to make a slug from; send a slug`,
      'invalid_body',
    );
  const now = new Date();
  const doc: MediaFolderDoc = {
    _id: new ObjectId(),
    bucket_id: bucket._id,
    slug,
    title,
    created_at: now,
    modified_at: now,
  };
  await underUniqueSlug(slug, () => mediaFoldersCollection(db).insertOne(doc));
  await bumpGeneration(db, bucket._id);
  return folderView(slug, doc, await mediaCountIn(db, bucket, slug));
}

/** What a folder an upload declares must look like: a slug, as the folder routes make them. */
const FOLDER_SLUG = /^[a-z0-9-]{1,100}$/;

/**
 * The folder an upload names: one the Bucket has, or else a new one it declares, titled by its
 * slug. Clients written before folders were a resource (the official SDKs among them) upload
 * into a folder without creating it first, and went on working. Only a value that could not be
 * a folder's slug is refused, naming it. Two uploads declaring one folder at once both succeed.
 */
export async function declareUploadFolder(db: Db, bucket: BucketDoc, slug: string): Promise<void> {
  if (await folderExists(db, bucket, slug)) return;
  if (!FOLDER_SLUG.test(slug))
    throw new BadRequestError(
      `Unknown folder '${slug}' (form field "folder"): bucket '${bucket.slug}' has no such media folder, and an ` +
        'upload can create one only with a slug of 1 to 100 lowercase letters, digits and hyphens',
      'folder_unknown',
    );
  const now = new Date();
  const doc: MediaFolderDoc = {
    _id: new ObjectId(),
    bucket_id: bucket._id,
    slug,
    title: slug,
    created_at: now,
    modified_at: now,
  };
  try {
    await mediaFoldersCollection(db).insertOne(doc);
  } catch (err) {
    if (isDuplicateKey(err)) return;
    throw err;
  }
  await bumpGeneration(db, bucket._id);
}

/**
 * A new title, a new slug, or both. A new title keeps the slug (media and URLs naming it stay
 * valid); a new slug moves the folder's media to it, so clients that send the folder as a slug
 * find them under the new one. Renaming a folder only media name declares it.
 */
export async function renameFolder(db: Db, bucket: BucketDoc, slug: string, input: unknown): Promise<MediaFolderView> {
  assertValid('MediaFolderPatch', input, 'body');
  await finishPendingMoves(db, bucket);
  const { doc } = await findFolder(db, bucket, slug);
  const newSlug = input.slug ?? slug;
  const moves = newSlug !== slug;
  // Media already naming the new slug make it a folder: moving into it would merge two folders.
  if (moves && (await mediaCountIn(db, bucket, newSlug)) > 0) throw taken(newSlug);
  const now = new Date();
  const set = {
    slug: newSlug,
    title: input.title?.trim() ?? doc?.title ?? slug,
    modified_at: now,
    // Marks the move until the media have followed (see finishPendingMoves).
    ...(moves && { moving_from: slug }),
  };
  const folders = mediaFoldersCollection(db);
  const saved = await underUniqueSlug(newSlug, async () => {
    if (doc) return folders.findOneAndUpdate({ _id: doc._id }, { $set: set }, { returnDocument: 'after' });
    const made: MediaFolderDoc = { _id: new ObjectId(), bucket_id: bucket._id, created_at: now, ...set };
    await folders.insertOne(made);
    return made;
  });
  // Deleted by another request between the read and this write.
  if (!saved) throw notFound('media_folder', slug, bucket.slug);
  if (moves) {
    await moveMedia(db, bucket, slug, newSlug);
    await folders.updateOne({ _id: saved._id }, { $unset: { moving_from: '' } });
  }
  await bumpGeneration(db, bucket._id);
  const { moving_from: _marker, ...clean } = saved;
  return folderView(newSlug, clean, await mediaCountIn(db, bucket, newSlug));
}

/**
 * Deletes a folder. One that holds media is refused (400 folder_has_media) unless `moveTo`
 * names another folder, which then receives them first; a delete that stops between the two
 * leaves the folder empty, and repeating it finishes. Answers how many media items moved.
 */
export async function deleteFolder(
  db: Db,
  bucket: BucketDoc,
  slug: string,
  moveTo: string | undefined,
): Promise<{ moved: number }> {
  await finishPendingMoves(db, bucket);
  const { doc, count } = await findFolder(db, bucket, slug);
  if (moveTo !== undefined) {
    if (moveTo === slug)
      throw new BadRequestError(
        `Invalid parameters: move_to must name another folder than '${slug}', the one deleted`,
        'invalid_parameter',
      );
    await assertFolderExists(db, bucket, moveTo, 'move_to');
  } else if (count > 0) {
    throw new BadRequestError(
      `Folder '${slug}' holds ${String(count)} media item${count === 1 ? '' : 's'}: move ${count === 1 ? 'it' : 'them'} ` +
        `to another folder first, or send move_to=<folder slug> to move them with the delete`,
      'folder_has_media',
    );
  }
  const moved = moveTo !== undefined && count > 0 ? await moveMedia(db, bucket, slug, moveTo) : 0;
  if (doc) await mediaFoldersCollection(db).deleteOne({ _id: doc._id });
  await bumpGeneration(db, bucket._id);
  return { moved };
}
