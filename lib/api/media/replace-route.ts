import type { RequestHandler, Response } from 'express';
import type { Config } from '../../config.js';
import type { EventDeps } from '../../events/domain-events.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { closeAfterResponse } from '../../http/close-after-response.js';
import { sendJson } from '../../http/respond.js';
import { bucketOf } from '../../http/request.js';
import { mediaUpload, storedUpload, uploadTaken } from '../../middleware/upload.js';
import { NO_PARAMS } from '../../query/read-params.js';
import { checkedFirst, writeAccess } from '../../routes/access.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { quote } from '../../util/quote.js';
import type { MediaDoc } from '../../store/media.js';
import { getMedia } from '../../media/media.js';
import { replaceMediaFile } from '../../media/media-replace.js';
import type { MediaRuntime } from '../../media/media-runtime.js';
import { renderMedia, type MediaResponse } from '../../render/media.js';

/** Set by the handler that reads the item before the body, for the one that replaces its file. */
const replacing = (res: Response): MediaDoc => res.locals.replacing as MediaDoc;

/** A replacement carries the file alone: the item's other fields change with PATCH. */
function assertFileOnly(body: Record<string, unknown> | undefined): void {
  const fields = Object.keys(body ?? {});
  if (fields.length === 0) return;
  throw new BadRequestError(
    `Invalid upload: unknown form field(s) ${fields.map(quote).join(', ')}; a replacement sends only the file, ` +
      'in the field "media" (change the other fields with PATCH)',
    'invalid_body',
  );
}

/**
 * PUT /buckets/:slug/media/:media_id/file: a new file for an existing item (media-replace.ts).
 * The key (header only) and the item are checked before the body is read, so neither a wrong key
 * nor an unknown id costs an upload; the file then streams to storage with the upload's limits
 * and type sniffing.
 */
export function replaceFileRoute(config: Config, writes: EventDeps, media: MediaRuntime): RouteDef {
  const findItem: RequestHandler = async (req, res, next) => {
    try {
      res.locals.replacing = await getMedia(writes.db, bucketOf(res), String(req.params.media_id));
    } catch (err) {
      // The file is not wanted: the connection closes rather than wait for it to arrive.
      closeAfterResponse(res);
      throw err;
    }
    next();
  };
  return route(
    'put',
    '/buckets/:slug/media/:media_id/file',
    NO_PARAMS,
    // Only a header can carry its key, so nobody else's file is read.
    checkedFirst(writeAccess('media')),
    findItem,
    mediaUpload(config, writes.db, media.remover, () => undefined),
    async (req, res) => {
      const bucket = bucketOf(res);
      const stored = storedUpload(req);
      if (!stored)
        throw new BadRequestError(
          'The form has no file: send the new file as multipart/form-data in the field "media"',
          'invalid_body',
        );
      assertFileOnly(req.body as Record<string, unknown> | undefined);
      const doc = await replaceMediaFile(writes, bucket, replacing(res), stored, () => {
        uploadTaken(res);
      });
      sendJson(res, 200, { media: renderMedia(doc, config, bucket) } satisfies MediaResponse);
    },
  );
}
