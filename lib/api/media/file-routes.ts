import type { Request } from 'express';
import type { Db } from 'mongodb';
import { mediaFiles, mediaVariants, type MediaDoc } from '../../store/media.js';
import { notFound } from '../../errors/not-found.js';
import { parseImgprocParams, PROCESSABLE_TYPES, resolveParams } from '../../media/imgproc-params.js';
import type { MediaRuntime } from '../../media/media-runtime.js';
import { sendBytes, sendStoredFile } from '../../media/send-stored-file.js';
import { findBucketBySlug } from '../../buckets/buckets.js';
import { findMediaByName } from '../../media/media.js';
import { NO_PARAMS } from '../../query/read-params.js';
import { PUBLIC } from '../../routes/access.js';
import { route, type RouteDef } from '../../routes/route-table.js';

/** The media item a public file URL names; both URLs answer 404 once it is deleted. */
async function mediaAt(db: Db, req: Request): Promise<MediaDoc> {
  const slug = String(req.params.bucket);
  const name = String(req.params.name);
  const bucket = await findBucketBySlug(db, slug);
  if (!bucket) throw notFound('bucket', slug);
  const media = await findMediaByName(db, bucket, name);
  if (!media) throw notFound('media_file', name, slug);
  return media;
}

/**
 * Public file addresses, outside /v3 and without keys (they are embedded in pages):
 * `/files/:bucket/:name` serves the original bytes, `/imgproc/:bucket/:name` a processed image.
 */
export function mediaFileRoutes(db: Db, { images }: MediaRuntime): RouteDef[] {
  const file = route('get', '/files/:bucket/:name', NO_PARAMS, PUBLIC, async (req, res) => {
    const media = await mediaAt(db, req);
    await sendStoredFile(req, res, mediaFiles(db), {
      id: media.file_id,
      length: media.size,
      contentType: media.type,
      etag: `"${media.file_id.toHexString()}"`,
    });
  });

  const processed = route('get', '/imgproc/:bucket/:name', NO_PARAMS, PUBLIC, async (req, res) => {
    const requested = parseImgprocParams(req.query);
    const media = await mediaAt(db, req);
    if (requested === null || !PROCESSABLE_TYPES.has(media.type)) {
      // Nothing to do, or nothing the processor can read: the original, as the file URL serves it.
      await sendStoredFile(req, res, mediaFiles(db), {
        id: media.file_id,
        length: media.size,
        contentType: media.type,
        etag: `"${media.file_id.toHexString()}"`,
      });
      return;
    }
    const variant = await images.variant(media, resolveParams(requested, media.type));
    if (variant.kind === 'unstored') {
      // Made but not kept (see ImageProcessor): the bytes are in hand, so they go out as they are.
      res.set('X-Imgproc-Cache', 'BYPASS');
      sendBytes(req, res, variant.bytes, variant.contentType);
      return;
    }
    res.set('X-Imgproc-Cache', variant.cached ? 'HIT' : 'MISS');
    await sendStoredFile(req, res, mediaVariants(db), {
      id: variant.file._id,
      length: variant.file.length,
      contentType: variant.contentType,
      etag: `"${variant.file._id.toHexString()}"`,
    });
  });

  return [file, processed];
}
