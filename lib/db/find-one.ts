import type { Collection, Db, Document, Filter, WithId } from 'mongodb';
import type { ReadOptions } from './query-time-limit.js';

/**
 * The first document `filter` finds in `coll` (by the server's natural order), read with a plain
 * find command of one batch: the hot reads (the Object an edit starts from, one Object by id)
 * want one document by a unique key, and the driver's findOne builds a cursor and closes it for
 * that, about a twelfth of an edit's CPU. Reads the primary, as a write's read must.
 */
export async function findOneByCommand<T extends Document>(
  db: Db,
  coll: Collection<T>,
  filter: Filter<T>,
  options: ReadOptions = {},
): Promise<WithId<T> | null> {
  const reply = await db.command({
    find: coll.collectionName,
    filter,
    limit: 1,
    singleBatch: true,
    batchSize: 1,
    ...(options.maxTimeMS !== undefined && { maxTimeMS: options.maxTimeMS }),
  });
  const [doc] = (reply.cursor as { firstBatch: WithId<T>[] }).firstBatch;
  return doc ?? null;
}
