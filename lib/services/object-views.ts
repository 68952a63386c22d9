import type { Collection, Db, Filter } from 'mongodb';
import { objectsCollection, publishedObjectsCollection, type ObjectDoc } from '../db/collections.js';
import type { StatusFilter } from '../query/read-params.js';
import { readOptions, type ReadOptions } from './query-time-limit.js';

export type { StatusFilter };

export interface ObjectView {
  coll: Collection<ObjectDoc>;
  /** Added to every filter on `coll` for this status. */
  match: Filter<ObjectDoc>;
  /** Options of every read on `coll` (its time limit). */
  readOptions: ReadOptions;
}

/**
 * Where a status reads from: published → the live versions; draft → latest versions that are
 * drafts; any → every latest version, draft or published.
 */
export function viewFor(db: Db, status: StatusFilter): ObjectView {
  const options = readOptions(db);
  if (status === 'published') return { coll: publishedObjectsCollection(db), match: {}, readOptions: options };
  return { coll: objectsCollection(db), match: status === 'draft' ? { status: 'draft' } : {}, readOptions: options };
}

/** The stored Object without scheduling state: what a published copy or a revision keeps. */
export function contentOf(doc: ObjectDoc): ObjectDoc {
  const { publish_at: _p, unpublish_at: _u, schedule_claim: _c, ...content } = doc;
  return content;
}
