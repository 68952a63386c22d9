import type { Db, Filter, ObjectId } from 'mongodb';
import { objectsCollection, publishedObjectsCollection, type BucketDoc, type ObjectDoc } from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { readOptions } from '../db/service-db.js';
import { getObjectType } from '../store/type-reads.js';

/** How many live-copy ids one `$in` read names, so a type with many Objects is counted in bounded reads. */
const IDS_PER_READ = 1000;

/**
 * The filter of Objects (of `type`) whose metadata holds `key`. `withValue` leaves out the empty
 * values an editor saves for a field left blank (null, "" and []), which lose nothing when removed.
 */
export function holdingKey(bucketId: ObjectId, type: string, key: string, withValue: boolean): Filter<ObjectDoc> {
  const path = `metadata.${key}`;
  const held = withValue ? { $exists: true, $nin: [null, '', []] } : { $exists: true };
  return { bucket_id: bucketId, type, [path]: held };
}

/**
 * How many Objects hold `filter` in their latest version or their live copy, each counted once:
 * the latest versions that do, plus the live copies that do whose latest version does not (a
 * draft that cleared the value over a published version that has it).
 */
export async function countObjectsHolding(db: Db, filter: Filter<ObjectDoc>): Promise<number> {
  const latest = objectsCollection(db);
  let count = await latest.countDocuments(filter, readOptions(db));
  const live = publishedObjectsCollection(db).find(filter, readOptions(db)).project<{ _id: ObjectId }>({ _id: 1 });
  let batch: ObjectId[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const alsoLatest = await latest.countDocuments({ $and: [{ _id: { $in: batch } }, filter] }, readOptions(db));
    count += batch.length - alsoLatest;
    batch = [];
  };
  for await (const { _id } of live) {
    batch.push(_id);
    if (batch.length >= IDS_PER_READ) await flush();
  }
  await flush();
  return count;
}

/** GET …/metafields/:key/usage: how many Objects of the type have a value for the top-level Metafield `key`. */
export async function metafieldUsage(db: Db, bucket: BucketDoc, typeSlug: string, key: string): Promise<number> {
  const type = await getObjectType(db, bucket, typeSlug);
  if (!type.metafields.some((m) => m.key === key)) throw notFound('metafield', key, bucket.slug);
  return countObjectsHolding(db, holdingKey(bucket._id, type.slug, key, true));
}
