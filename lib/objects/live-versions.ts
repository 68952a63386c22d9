import type { Db, ObjectId } from 'mongodb';
import { publishedObjectsCollection } from '../db/collections.js';
import { readOptions } from '../db/service-db.js';
import type { StatusFilter } from './object-views.js';
import type { ReadObject } from '../render/objects.js';

/**
 * The read-only field that tells an editor whether an Object it reads as its latest version
 * (status any or draft) also has a live version, and which one: the live copy's `modified_at`,
 * or null when nothing is live. Live copies are kept apart (object-views.ts), so without it a
 * client would have to read each Object again with status=published and meet a 404 for every
 * Object never published.
 */
export const LIVE_FIELD = 'published_modified_at';

/**
 * Whether a read answers the field: never on published reads (the public hot path; the live
 * version is what they show), and with `props` only when asked for.
 */
export function answersLive(status: StatusFilter, props: readonly string[] | null): boolean {
  return status !== 'published' && (props === null || props.includes(LIVE_FIELD));
}

/**
 * The live versions' `modified_at` (ISO text) by Object id. A latest version that is published
 * is the live one (a publish writes both), so only the others are read: one read for a page.
 */
export async function liveVersions(
  db: Db,
  bucketId: ObjectId,
  docs: readonly ReadObject[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const unknown: ObjectId[] = [];
  for (const doc of docs) {
    // With props, status or modified_at may not have been read: then the live copy is.
    if (doc.status === 'published' && doc.modified_at) found.set(doc._id.toHexString(), doc.modified_at.toISOString());
    else unknown.push(doc._id);
  }
  if (unknown.length === 0) return found;
  const live = await publishedObjectsCollection(db)
    .find({ _id: { $in: unknown }, bucket_id: bucketId }, readOptions(db))
    .project<{ _id: ObjectId; modified_at: Date }>({ modified_at: 1 })
    .toArray();
  for (const doc of live) found.set(doc._id.toHexString(), doc.modified_at.toISOString());
  return found;
}

/** The field as it goes beside one Object (see LIVE_FIELD). */
export function liveField(found: ReadonlyMap<string, string>, id: ObjectId): { [LIVE_FIELD]: string | null } {
  return { [LIVE_FIELD]: found.get(id.toHexString()) ?? null };
}
