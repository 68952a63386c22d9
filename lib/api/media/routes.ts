import type { RequestHandler } from 'express';
import type { AppState } from '../../app-state.js';
import type { Config } from '../../config.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { noMatch } from '../../errors/not-found.js';
import { cachedRead } from '../../middleware/cached-read.js';
import { sendJson } from '../../http/respond.js';
import { requireWrite } from '../../middleware/authenticate.js';
import { bearerKey } from '../../http/request.js';
import { writeBody } from '../../middleware/write-body.js';
import { bucketOf } from '../../http/request.js';
import { mediaUpload, storedUpload, uploadTaken } from '../../middleware/upload.js';
import { checkKeyBeforeStoring } from '../../middleware/upload-key.js';
import type { MediaRuntime } from '../../media/media-runtime.js';
import { parseUploadFields } from '../../media/upload-fields.js';
import { readParams } from '../../http/request.js';
import { declareUploadFolder } from '../../media/folder-writes.js';
import { pickProps } from '../../query/props.js';
import { DELETE_PARAMS, NO_PARAMS, paramSet } from '../../query/read-params.js';
import { renderMedia } from '../../render/media.js';
import type { Picked } from '../../query/props.js';
import type { LegacyMediaList, MediaList, MediaResponse } from '../../render/media.js';
import type { EventDeps } from '../../events/domain-events.js';
import { createMedia, deleteMedia, getMedia, updateMedia } from '../../media/media.js';
import { listMedia } from '../../media/media-list.js';
import { replaceFileRoute } from './replace-route.js';
import { readBounds } from '../../query/read-budget.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { readAccess, writeAccess } from '../../routes/access.js';

const noop = () => undefined;

/**
 * A key in the Authorization header is checked before the body is read, so a wrong key never
 * costs an upload. A `write_key` form field is checked as the file begins when it came first
 * (see upload-key.ts); one sent after the file can only be checked once the form is parsed (by the
 * route's declared check), and the stored file is then removed (lib/middleware/upload.ts).
 */
const checkHeaderKey: RequestHandler = (req, res, next) => {
  if (bearerKey(req) !== undefined) requireWrite(req, res, noop);
  next();
};

/** Handlers after the Bucket is loaded: shared by the v3 upload route and the v1 one (lib/legacy/v1). */
export function uploadHandlers(config: Config, writes: EventDeps, media: MediaRuntime): RequestHandler[] {
  return [
    checkHeaderKey,
    mediaUpload(config, writes.db, media.remover, checkKeyBeforeStoring(media.keylessUploads)),
    async (req, res) => {
      const bucket = bucketOf(res);
      const stored = storedUpload(req);
      if (!stored)
        throw new BadRequestError(
          'The form has no file: send it as multipart/form-data in the field "media"',
          'invalid_body',
        );
      const fields = parseUploadFields(req.body as Record<string, unknown> | undefined);
      if (fields.folder !== null) await declareUploadFolder(writes.db, bucket, fields.folder);
      const doc = await createMedia(writes, bucket, stored, fields);
      uploadTaken(res);
      sendJson(res, 200, { media: renderMedia(doc, config, bucket) } satisfies MediaResponse);
    },
  ];
}

export const MEDIA_LIST = paramSet([
  'read_key',
  'query',
  'folder',
  'props',
  'sort',
  'limit',
  'skip',
  'after',
  'useCache',
  'allow_empty',
]);
const ONE = paramSet(['read_key', 'props', 'useCache']);

/**
 * The media list, taking `MEDIA_LIST`: v3 sort values, or the legacy ones (`created`, `size`, v1/v2),
 * which the legacy list routes answer with this same handler.
 */
export function mediaListHandler(
  config: Config,
  { writes: { db }, reads: cache }: AppState,
  sorts: 'media' | 'legacy-media',
): RequestHandler {
  return async (req, res) => {
    const bucket = bucketOf(res);
    const params = readParams(res, MEDIA_LIST);
    await cachedRead(cache, req, res, params.useCache, async () => {
      const { docs, total } = await listMedia(db, bucket, params, readBounds(config).maxBytes, sorts);
      if (docs.length === 0 && !params.allow_empty) throw noMatch('media', bucket.slug);
      const media = docs.map((d) => pickProps(renderMedia(d, config, bucket), params.props));
      // The v1/v2 list (the one taking the legacy sort values) also answers the limit it applied.
      if (sorts === 'legacy-media') return { media, total, limit: params.limit } satisfies LegacyMediaList;
      return { media, total } satisfies MediaList;
    });
  };
}

export function mediaRoutes(config: Config, state: AppState): RouteDef[] {
  const { writes, reads: cache, media } = state;
  const { db } = writes;
  const base = '/buckets/:slug/media';
  const one = `${base}/:media_id`;
  const body = writeBody(config.jsonBodyLimit);
  return [
    route('post', base, NO_PARAMS, writeAccess('media'), ...uploadHandlers(config, writes, media)),
    route('get', base, MEDIA_LIST, readAccess('media'), mediaListHandler(config, state, 'media')),
    route('get', one, ONE, readAccess('media'), async (req, res) => {
      const bucket = bucketOf(res);
      const params = readParams(res, ONE);
      await cachedRead(cache, req, res, params.useCache, async () => {
        const doc = await getMedia(db, bucket, String(req.params.media_id));
        return { media: pickProps(renderMedia(doc, config, bucket), params.props) } satisfies MediaResponse<Picked>;
      });
    }),
    route('patch', one, NO_PARAMS, writeAccess('media'), body, async (req, res) => {
      const bucket = bucketOf(res);
      const doc = await updateMedia(writes, bucket, String(req.params.media_id), req.body);
      sendJson(res, 200, { media: renderMedia(doc, config, bucket) } satisfies MediaResponse);
    }),
    replaceFileRoute(config, writes, media),
    route('delete', one, DELETE_PARAMS, writeAccess('media'), async (req, res) => {
      const id = String(req.params.media_id);
      await deleteMedia(writes, bucketOf(res), id, readParams(res, DELETE_PARAMS).trigger_webhook);
      sendJson(res, 200, { message: `Media with id '${id}' deleted successfully from bucket.` });
    }),
  ];
}
