import type { Collection, Db, ObjectId } from 'mongodb';
import type { BlockInfo, BundleSource } from './bundle-format.js';

/**
 * One import of a source into a Bucket, kept while it runs and after: an unfinished one lets a
 * rerun continue into the Bucket it already began to fill; a finished one makes a rerun a no-op.
 * What the import wrote needs no record of its own: its ids and names are derived (id-plan.ts).
 */
export interface ImportDoc {
  /** importKey(bucket, source): the same source into the same Bucket is the same import. */
  _id: string;
  bucket_id: ObjectId;
  source: BundleSource;
  block?: BlockInfo;
  /** The bundle the latest run read. */
  bundle_id: string;
  started_at: Date;
  runs: number;
  finished_at: Date | null;
}

export function importsCollection(db: Db): Collection<ImportDoc> {
  return db.collection<ImportDoc>('imports');
}

export function findImport(db: Db, key: string): Promise<ImportDoc | null> {
  return importsCollection(db).findOne({ _id: key });
}

export async function beginImport(
  db: Db,
  doc: Pick<ImportDoc, '_id' | 'bucket_id' | 'source' | 'block' | 'bundle_id'>,
): Promise<void> {
  const { _id, bundle_id, ...fixed } = doc;
  await importsCollection(db).updateOne(
    { _id },
    {
      $setOnInsert: { ...fixed, started_at: new Date(), finished_at: null },
      $set: { bundle_id },
      $inc: { runs: 1 },
    },
    { upsert: true },
  );
}

export async function finishImport(db: Db, key: string): Promise<void> {
  await importsCollection(db).updateOne({ _id: key }, { $set: { finished_at: new Date() } });
}
