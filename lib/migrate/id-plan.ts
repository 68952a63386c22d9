import { createHash } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { deriveMediaName } from '../media/media-name.js';
import { isObjectIdHex } from '../util/values.js';

/*
 * The ids and names an import gives what it writes are derived, not drawn: the same source
 * imported into the same Bucket gets the same ones every time, so a rerun after an interruption
 * finds what the first run wrote instead of writing it again, and no table of them is needed.
 */

function digest(...parts: string[]): Buffer {
  return createHash('sha256').update(parts.join('\u0000')).digest();
}

/**
 * Names one import: the target Bucket and the source it imports (bundle-format.ts, BundleSource.id).
 * By the Bucket's slug, which no two Buckets of a database share, so a dry run into a Bucket not
 * yet created plans the same ids as the import that creates it.
 */
export function importKey(bucketSlug: string, sourceId: string): string {
  return digest('import', bucketSlug, sourceId).toString('hex').slice(0, 32);
}

/**
 * The id an imported Object gets. Its first four bytes, an ObjectId's creation time, are kept
 * from the source id when that is an ObjectId (else taken from `created`), so ids sort by age in
 * the target as they did in the source; the other eight come from the import and the source id.
 */
export function plannedObjectId(key: string, sourceId: string, created: Date): ObjectId {
  const bytes = digest('object', key, sourceId).subarray(0, 12);
  if (isObjectIdHex(sourceId)) Buffer.from(sourceId.slice(0, 8), 'hex').copy(bytes, 0);
  else bytes.writeUInt32BE(Math.max(0, Math.floor(created.getTime() / 1000)) >>> 0, 0);
  return new ObjectId(bytes);
}

/** The stored name an imported media item gets: the usual `<16 hex>-<name>.<ext>`, its prefix derived. */
export function plannedMediaName(key: string, sourceName: string, originalName: string, type: string): string {
  return deriveMediaName(originalName, type, digest('media', key, sourceName).toString('hex').slice(0, 16));
}
