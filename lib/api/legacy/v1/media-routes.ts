import type { Config } from '../../../config.js';
import type { BucketDoc } from '../../../db/collections.js';
import type { AppState } from '../../../app-state.js';
import { BadRequestError } from '../../../errors/http-errors.js';
import { noMatch } from '../../../errors/not-found.js';
import { sendJson } from '../../../http/respond.js';
import { bucketOf } from '../../../http/request.js';
import { readParams } from '../../../http/request.js';
import { writeBody } from '../../../middleware/write-body.js';
import { pickProps } from '../../../query/props.js';
import { DELETE_PARAMS, NO_PARAMS, paramSet } from '../../../query/read-params.js';
import { uploadHandlers } from '../../media/routes.js';
import { renderMedia, type ReadMedia } from '../../../render/media.js';
import { deleteMedia, updateMedia } from '../../../media/media.js';
import { listMedia } from '../../../media/media-list.js';
import { readBounds } from '../../../query/read-budget.js';
import { bodyOf, triggered } from './bodies.js';
import { parseV1Read, type V1ParamName } from './list-params.js';
import { sendRead, v1Route, type V1Route } from './route.js';
import { readAccess, writeAccess } from '../../../routes/access.js';

/** `sort` takes the v1/v2 media values (created, -created, size, -size, random) as well as v3's. */
const MEDIA = paramSet(['read_key', 'sort', 'limit', 'skip']);
const MEDIA_NAMES: readonly V1ParamName[] = ['props'];

/** A media item as v1 answers it: the v3 item with `_id` for `id`. */
export function toV1Media(m: ReadMedia, config: Config, bucket: BucketDoc): Record<string, unknown> {
  const { id, ...rest } = renderMedia(m, config, bucket);
  return { _id: id, ...rest };
}

/** Media list, upload, edit and delete at their v1 addresses. */
export function mediaRoutes(config: Config, state: AppState): V1Route[] {
  const { writes } = state;
  const list = v1Route('get', '/:slug/media', MEDIA, readAccess('media'), async (req, res) => {
    const bucket = bucketOf(res);
    const { limit, skip, sort } = readParams(res, MEDIA);
    const { props } = parseV1Read(req.query, MEDIA_NAMES, []);
    const folder = req.query.folder;
    if (folder !== undefined && typeof folder !== 'string')
      throw new BadRequestError('Invalid parameters: folder must be given once', 'invalid_parameter');
    const query = folder ? JSON.stringify({ folder }) : undefined;
    const q = { query, sort, props: null, limit, skip, after: undefined };
    await sendRead(res, async () => {
      const page = await listMedia(writes.db, bucket, q, readBounds(config).maxBytes, 'legacy-media');
      if (page.docs.length === 0) throw noMatch('media', bucket.slug);
      const media = page.docs.map((m) => pickProps(toV1Media(m, config, bucket), props));
      return { media, total: page.total, limit };
    });
  });
  return [
    // `folder` filters media, not Objects, so the route reads it itself.
    { ...list, v1Params: [...MEDIA_NAMES, 'folder'] },
    // The v1 upload address (on the upload host in v1), answered exactly like v3's upload.
    v1Route('post', '/:slug/media', NO_PARAMS, writeAccess('media'), ...uploadHandlers(config, writes, state.media)),
    // v3's media edit at the v1 address; the key may come in the body as `write_key`, which is not edited.
    v1Route(
      'patch',
      '/:slug/media/:media_id',
      NO_PARAMS,
      writeAccess('media'),
      writeBody(config.jsonBodyLimit),
      async (req, res) => {
        const bucket = bucketOf(res);
        const { write_key: _key, ...edit } = bodyOf(req.body ?? {});
        const doc = await updateMedia(writes, bucket, String(req.params.media_id), edit);
        sendJson(res, 200, { media: toV1Media(doc, config, bucket) });
      },
    ),
    v1Route(
      'delete',
      '/:slug/media/:media_id',
      DELETE_PARAMS,
      writeAccess('media'),
      writeBody(config.jsonBodyLimit),
      async (req, res) => {
        const id = String(req.params.media_id);
        await deleteMedia(writes, bucketOf(res), id, triggered(res, bodyOf(req.body ?? {})));
        sendJson(res, 200, { message: `Media with id '${id}' deleted successfully from bucket.` });
      },
    ),
  ];
}
