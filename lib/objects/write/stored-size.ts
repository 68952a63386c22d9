import { BSON } from 'mongodb';
import type { ObjectDoc } from '../../db/collections.js';
import { megabytes } from '../../errors/domain-limits.js';
import { PayloadTooLargeError } from '../../errors/http-errors.js';

/** MongoDB's cap on one stored document (maxBsonObjectSize); the driver refuses to send more. */
const DOCUMENT_CAP_BYTES = 16 * 1024 * 1024;

/**
 * Room kept under the cap for what writes add to a stored Object after it is written: the
 * scheduler's lease (`schedule_claim`, a few dozen bytes), a later `publish_at` / `unpublish_at`,
 * a revision's own fields (`object_id`, `reason`). 16 KiB covers them many times over.
 */
const HEADROOM_BYTES = 16 * 1024;

/**
 * The largest Object a write may store, as BSON. This and not the JSON body limit is the rule:
 * a body limit bounds one request, while an Object's stored form (metadata grown over PATCHes,
 * or one brought by an import or pull) is bounded only by what the database takes, and an
 * Object at the cap is one later writes could no longer touch.
 */
export const MAX_STORED_OBJECT_BYTES = DOCUMENT_CAP_BYTES - HEADROOM_BYTES;

/**
 * Refuses a version whose stored document would not fit. The live copy (published_objects) is the
 * same document and the revision a subset of its fields, so the latest-version document is the
 * largest thing the version write stores.
 */
export function assertStorable(doc: ObjectDoc, max: number = MAX_STORED_OBJECT_BYTES): void {
  const size = BSON.calculateObjectSize(doc);
  if (size <= max) return;
  throw new PayloadTooLargeError(
    `Object "${doc.slug}" of type "${doc.type}" would be stored as ${megabytes(size)} MB; a stored Object holds at most ${megabytes(max)} MB`,
  );
}
