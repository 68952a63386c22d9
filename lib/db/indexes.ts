import type { Db } from 'mongodb';
import { bucketsCollection } from './collections.js';

/** Idempotent: createIndex is a no-op when an identical index exists. */
export async function ensureIndexes(db: Db): Promise<void> {
  await bucketsCollection(db).createIndex({ slug: 1 }, { unique: true, name: 'slug_unique' });
}
