import type { Db } from 'mongodb';
import { objectTypesCollection, type BucketDoc, type ObjectTypeDoc } from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { readOptions } from '../db/service-db.js';

/* Reads of Object types, apart from their writes: rendering and events need these alone. */

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
