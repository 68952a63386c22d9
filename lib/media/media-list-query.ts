import type { Document, ObjectId } from 'mongodb';
import { parseSort, type SortSpec, type SortTarget } from '../query/sort.js';
import { randomPageStages } from '../objects/list/object-list-query.js';

/** The v3 media sort values, or the legacy v1/v2 ones (`created`, `size`). */
export type MediaSorts = Extract<SortTarget, 'media' | 'legacy-media'>;

/**
 * What a media list asks the database, built without it: the index-contract unit test holds every
 * filter and sort built here to MEDIA_LIST_INDEXES (lib/store/media.ts), so a media list
 * stays an index range read in order on MongoDB.
 */
export interface MediaListFind {
  /** Every match of the list: what `total` counts. Pins `bucket_id`. */
  filter: Document;
  /** The page's filter: `filter`, after the `after` cursor when there is one. */
  pageFilter: Document;
  sort: SortSpec;
  skip: number;
  limit: number;
}

export function mediaListSort(raw: string | undefined, sorts: MediaSorts): SortSpec {
  return parseSort(raw, { sortableKeys: new Set(), allowed: sorts });
}

export function mediaListQuery(parts: {
  bucketId: ObjectId;
  /** The client's query, validated and translated. */
  translated: Document;
  sort: SortSpec;
  /** Items after the `after` cursor, or null. */
  keyset: Document | null;
  skip: number;
  limit: number;
}): MediaListFind {
  const base = { bucket_id: parts.bucketId };
  const filter = Object.keys(parts.translated).length > 0 ? { $and: [base, parts.translated] } : base;
  return {
    filter,
    pageFilter: parts.keyset ? { $and: [filter, parts.keyset] } : filter,
    sort: parts.sort,
    skip: parts.skip,
    limit: parts.limit,
  };
}

/** The aggregation of a random page, as for Objects, then narrowed to `projection` when there is one. */
export function mediaRandomPageStages(q: MediaListFind, projection: Document | null): Document[] {
  return [...randomPageStages(q), ...(projection ? [{ $project: projection }] : [])];
}
