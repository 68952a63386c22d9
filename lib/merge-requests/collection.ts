import type { Collection, Db, ObjectId } from 'mongodb';

/** One Object of a merge request: the draft version it recorded, and when the merge published it. */
export interface MergeItem {
  object_id: ObjectId;
  revision_id: ObjectId;
  /** The recorded version's modified_at (its revision's created_at): the merge publishes only that version. */
  version: Date;
  published_at: Date | null;
}

/**
 * A named change set of one Bucket. `merging` is the claim of a merge in progress, so two merges
 * of one request never run at once; a claim older than MERGE_CLAIM_MS is taken to be a crashed
 * merge, and another merge may take it over and finish what is left.
 */
export interface MergeRequestDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  title: string;
  status: 'open' | 'merging' | 'merged' | 'closed';
  items: MergeItem[];
  created_at: Date;
  modified_at: Date;
  merged_at: Date | null;
  closed_at: Date | null;
  /**
   * The account (id) that made, merged or closed the request, null for a Bucket key. Absent on
   * requests stored before these were recorded, which the API answers as null.
   */
  created_by?: string | null;
  merged_by?: string | null;
  closed_by?: string | null;
  merging_since?: Date;
}

export function mergeRequestsCollection(db: Db): Collection<MergeRequestDoc> {
  return db.collection<MergeRequestDoc>('merge_requests');
}

export async function ensureMergeRequestIndexes(db: Db): Promise<void> {
  await mergeRequestsCollection(db).createIndex(
    { bucket_id: 1, created_at: -1, _id: -1 },
    { name: 'bucket_newest' },
    undefined,
  );
}
