import type { Collection, Db, Filter } from 'mongodb';
import { objectsCollection, publishedObjectsCollection, type ObjectDoc } from '../db/collections.js';
import type { StatusFilter } from '../query/read-params.js';
import { readOptions, type ReadOptions } from '../db/service-db.js';

export type { StatusFilter };

export interface ObjectView {
  coll: Collection<ObjectDoc>;
  /**
   * Added to every filter on `coll` for this status. It always names `status`, even where every
   * document of `coll` would match, so the list indexes (which hold `status` before the sort
   * field, lib/db/indexes.ts) serve the sort.
   */
  match: Filter<ObjectDoc>;
  /** Whether a document read from `coll` without `match` (by `_id`) is in this view. */
  shows: (doc: Pick<ObjectDoc, 'status' | 'type'>) => boolean;
  /** Options of every read on `coll` (its time limit). */
  readOptions: ReadOptions;
}

const EVERY_STATUS: ReadonlyArray<ObjectDoc['status']> = ['published', 'draft'];

/** The filter of a status view (see ObjectView.match); pure, so tests can hold it to the indexes. */
export function statusMatch(status: StatusFilter): Filter<ObjectDoc> {
  return { status: status === 'any' ? { $in: [...EVERY_STATUS] } : status };
}

/**
 * Where a status reads from: published → the live versions (all published); draft → latest
 * versions that are drafts; any → every latest version, draft or published.
 */
export function viewFor(db: Db, status: StatusFilter): ObjectView {
  const shown = status === 'any' ? EVERY_STATUS : [status];
  return {
    coll: status === 'published' ? publishedObjectsCollection(db) : objectsCollection(db),
    match: statusMatch(status),
    shows: (doc) => shown.includes(doc.status),
    readOptions: readOptions(db),
  };
}

/**
 * `view` for a caller held to some Object types (a contributor, lib/accounts/type-scope.ts): a
 * related Object of another type is not in it, so depth shows it as a missing relationship.
 */
export function scopedView(view: ObjectView, typeScope: readonly string[] | null): ObjectView {
  if (typeScope === null) return view;
  return { ...view, shows: (doc) => view.shows(doc) && typeScope.includes(doc.type) };
}
