import type { Collection, Db, ObjectId } from 'mongodb';
import { mediaCollection } from '../store/media.js';

/**
 * A declared media folder. Media name their folder by slug (`MediaDoc.folder`), as clients
 * have always sent it on upload; this record gives the slug a title and lets it exist empty.
 */
export interface MediaFolderDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  /** Unique per Bucket (index `bucket_slug_unique`). */
  slug: string;
  title: string;
  created_at: Date;
  modified_at: Date;
  /**
   * Set while a rename moves the folder's media from this old slug to `slug`: a rename that
   * stopped between the two writes is finished by the next folder request (lib/media/folder-reads.ts).
   */
  moving_from?: string;
}

export function mediaFoldersCollection(db: Db): Collection<MediaFolderDoc> {
  return db.collection<MediaFolderDoc>('media_folders');
}

/**
 * The unique slug per Bucket, and the media index every folder question is answered from: is a
 * slug named by any media item, how many each folder holds, and which media a rename moves.
 */
export async function ensureMediaFolderIndexes(db: Db): Promise<void> {
  await mediaFoldersCollection(db).createIndex(
    { bucket_id: 1, slug: 1 },
    { unique: true, name: 'bucket_slug_unique' },
    undefined,
  );
  await mediaCollection(db).createIndex({ bucket_id: 1, folder: 1 }, { name: 'bucket_folder' }, undefined);
}
