import type { Db } from 'mongodb';
import type { BucketDoc } from '../../db/collections.js';
import { mediaCollection } from '../../store/media.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { quote } from '../../util/quote.js';
import { NOTHING_PLANNED, type PlannedContent } from './planned-content.js';
import { readOptions } from '../../db/query-time-limit.js';

/**
 * `thumbnail` as sent → as stored: the name of a media item of this Bucket (checked, as file
 * Metafield values are), null for none. "" clears it like null; undefined leaves it alone.
 * Media an import has `planned` count as present.
 */
export async function storedThumbnail(
  db: Db,
  bucket: BucketDoc,
  sent: string | null | undefined,
  planned: PlannedContent = NOTHING_PLANNED,
): Promise<string | null | undefined> {
  if (sent === undefined) return undefined;
  if (sent === null || sent === '') return null;
  if (planned.media.has(sent)) return sent;
  const found = await mediaCollection(db).findOne(
    { bucket_id: bucket._id, name: sent },
    { projection: { _id: 1 }, ...readOptions(db) },
  );
  if (!found)
    throw new BadRequestError(`thumbnail: no media named ${quote(sent)} in bucket '${bucket.slug}'`, 'invalid_body');
  return sent;
}
