import { ObjectId, type Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { readOptions } from '../db/service-db.js';
import { removeArchive } from './archive-store.js';
import { extensionsCollection, type ExtensionDoc } from '../store/extensions.js';

/** A Bucket holds at most this many Extensions; the list is answered whole. */
export const MAX_EXTENSIONS_PER_BUCKET = 100;

export async function listExtensions(db: Db, bucket: BucketDoc): Promise<ExtensionDoc[]> {
  return extensionsCollection(db)
    .find({ bucket_id: bucket._id }, readOptions(db))
    .sort({ installed_at: 1, _id: 1 })
    .limit(MAX_EXTENSIONS_PER_BUCKET)
    .toArray();
}

export function countExtensions(db: Db, bucket: BucketDoc): Promise<number> {
  return extensionsCollection(db).countDocuments({ bucket_id: bucket._id }, readOptions(db));
}

export async function findExtension(db: Db, bucket: BucketDoc, id: string): Promise<ExtensionDoc> {
  const found = ObjectId.isValid(id)
    ? await extensionsCollection(db).findOne({ _id: new ObjectId(id), bucket_id: bucket._id }, readOptions(db))
    : null;
  if (!found) throw notFound('extension', id, bucket.slug);
  return found;
}

export async function insertExtension(db: Db, doc: ExtensionDoc): Promise<void> {
  await extensionsCollection(db).insertOne(doc);
}

export type ExtensionChanges = Partial<
  Pick<ExtensionDoc, 'title' | 'url' | 'image_url' | 'font_awesome_class' | 'query_params'>
>;

export async function updateExtension(
  db: Db,
  bucket: BucketDoc,
  id: ObjectId,
  changes: ExtensionChanges,
): Promise<ExtensionDoc> {
  const updated = await extensionsCollection(db).findOneAndUpdate(
    { _id: id, bucket_id: bucket._id },
    { $set: { ...changes, modified_at: new Date() } },
    { returnDocument: 'after' },
  );
  if (!updated) throw notFound('extension', id.toHexString(), bucket.slug);
  return updated;
}

/** Removes the Extension, then its archive: a failure in between leaves a file, never a dangling record. */
export async function deleteExtension(db: Db, bucket: BucketDoc, id: string): Promise<void> {
  const doc = await findExtension(db, bucket, id);
  await extensionsCollection(db).deleteOne({ _id: doc._id, bucket_id: bucket._id });
  if (doc.archive) await removeArchive(db, doc.archive.file_id);
}
