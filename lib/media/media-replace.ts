import type { Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { mediaCollection, type MediaDoc } from '../store/media.js';
import { BadRequestError, HttpError } from '../errors/http-errors.js';
import { notFound } from '../errors/not-found.js';
import { countRemoval, ensureUsage, reserve, type Reservation } from '../limits/usage-counters.js';
import { removeOriginal, removeVariantsOfFile } from '../store/files.js';
import type { StoredUpload } from './gridfs-storage.js';
import { finishChange, type EventDeps } from '../events/domain-events.js';

/**
 * An image stays an image: file Metafields may require one (media_validation_type "image"), and
 * Objects already saved would then name a file they could not hold. Other files take any type.
 */
function assertSameKind(current: MediaDoc, stored: StoredUpload): void {
  if (!current.type.startsWith('image/') || stored.type.startsWith('image/')) return;
  throw new BadRequestError(
    `Invalid upload: media '${current.name}' is an image (${current.type}) and the file sent is ${stored.type}: ` +
      'Objects may use it where only images are allowed, so replace it with an image',
    'invalid_body',
  );
}

/** The bytes the plan gains (reserved now) or loses (counted off once the write is done). */
async function reserveGrowth(deps: EventDeps, bucket: BucketDoc, growth: number): Promise<Reservation | null> {
  await ensureUsage(deps.db, bucket._id);
  return growth > 0 ? reserve(deps.db, bucket, deps.plans, 'media_bytes', growth) : null;
}

/**
 * Points a media item at a newly stored file, keeping its id, stored name (so every file Metafield
 * and URL), display name, folder, alt text and metadata. In order, with its crash points:
 * 1. the new file is already stored whole (the upload middleware); a crash leaves it unrecorded,
 *    as a crashed upload's is;
 * 2. the plan takes the growth (a shrink is counted off after step 3);
 * 3. the commit: one update of the record, on condition its file is still the one read, so two
 *    replacements racing cannot both win; from here the file URL serves the new bytes and
 *    processed images are made from them (variants are named by file id);
 * 4. `media.edited`; 5. the old file and its variants are removed. A crash before 5 leaves the old
 *    bytes unrecorded, never a record without bytes.
 * A failure before step 3 leaves the item as it was; `taken` is told once step 3 made the new file
 * the item's (the upload's own cleanup then leaves it be, lib/middleware/upload.ts).
 */
export async function replaceMediaFile(
  deps: EventDeps,
  bucket: BucketDoc,
  current: MediaDoc,
  stored: StoredUpload,
  taken: () => void,
): Promise<MediaDoc> {
  const updated = await commitReplacement(deps, bucket, current, stored);
  taken();
  const growth = stored.size - current.size;
  if (growth < 0) await countRemoval(deps.db, bucket._id, 'media_bytes', -growth);
  await finishChange(deps, bucket, { type: 'media.edited', doc: updated });
  await removeOriginal(deps.db, current.file_id);
  await removeVariantsOfFile(deps.db, current._id, current.file_id);
  return updated;
}

/** Steps 2 and 3: the growth reserved, then the record pointed at the new file. */
async function commitReplacement(
  deps: EventDeps,
  bucket: BucketDoc,
  current: MediaDoc,
  stored: StoredUpload,
): Promise<MediaDoc> {
  assertSameKind(current, stored);
  const slot = await reserveGrowth(deps, bucket, stored.size - current.size);
  let updated: MediaDoc | null;
  try {
    updated = await mediaCollection(deps.db).findOneAndUpdate(
      { _id: current._id, bucket_id: bucket._id, file_id: current.file_id },
      {
        $set: {
          file_id: stored.file_id,
          size: stored.size,
          type: stored.type,
          width: stored.width,
          height: stored.height,
          modified_at: new Date(),
        },
      },
      { returnDocument: 'after' },
    );
    if (updated) slot?.keep();
  } finally {
    await slot?.settle();
  }
  if (!updated) throw await lostRace(deps.db, bucket, current);
  return updated;
}

/** Why the commit matched nothing: the item went (404), or another replacement came first (409). */
async function lostRace(db: Db, bucket: BucketDoc, current: MediaDoc): Promise<HttpError> {
  const still = await mediaCollection(db).findOne({ _id: current._id, bucket_id: bucket._id });
  if (!still) return notFound('media', current._id.toHexString(), bucket.slug);
  return new HttpError(
    409,
    `Media '${current.name}' had its file replaced by another request while this one was sent; nothing was changed, retry the request`,
    'conflict',
  );
}
