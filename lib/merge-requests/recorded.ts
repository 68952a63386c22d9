import type { Db } from 'mongodb';
import { revisionsCollection, type BucketDoc, type RevisionDoc } from '../db/collections.js';
import { readOptions } from '../db/service-db.js';
import { getMergeRequest } from './manage.js';

/**
 * One page of a merge request's Objects as it recorded them (their draft revisions), in the
 * order the request listed them. A revision removed with its Object since is left out.
 */
export async function recordedRevisions(
  db: Db,
  bucket: BucketDoc,
  id: string,
  page: { limit: number; skip: number },
): Promise<{ revisions: RevisionDoc[]; total: number }> {
  const doc = await getMergeRequest(db, bucket, id);
  const ids = doc.items.slice(page.skip, page.skip + page.limit).map((i) => i.revision_id);
  const found = await revisionsCollection(db)
    .find({ _id: { $in: ids }, bucket_id: bucket._id }, readOptions(db))
    .toArray();
  const byId = new Map(found.map((r) => [r._id.toHexString(), r]));
  const revisions = ids.flatMap((rid) => byId.get(rid.toHexString()) ?? []);
  return { revisions, total: doc.items.length };
}

/**
 * The legacy clients send their whole Object-list vocabulary here too, but a filter or sort over
 * recorded versions would silently do nothing: a parameter outside `allowed` is a 400 naming it.
 */
export function onlyParams(allowed: readonly string[]): (query: Readonly<Record<string, unknown>>) => string[] {
  const known = new Set([...allowed, 'pretty']);
  return (query) =>
    Object.keys(query)
      .filter((k) => !known.has(k))
      .map((k) => `${k} is not supported on merge-request Objects, which take ${[...known].join(', ')}`);
}
