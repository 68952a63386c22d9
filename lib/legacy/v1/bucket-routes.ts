import type { Db } from 'mongodb';
import type { AppState } from '../../cache/app-state.js';
import type { Config } from '../../config.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { noMatch } from '../../errors/not-found.js';
import { sendJson } from '../../http/respond.js';
import { requireRead, requireWrite } from '../../middleware/authenticate.js';
import { bucketOf } from '../../middleware/load-bucket.js';
import { readParams } from '../../middleware/read-params.js';
import { writeBody } from '../../middleware/write-body.js';
import { NO_PARAMS, paramSet } from '../../query/read-params.js';
import { renderMedia } from '../../serializers/media.js';
import { renderObjectType } from '../../serializers/object-type.js';
import { deleteMedia } from '../../services/media.js';
import { listMedia } from '../../services/media-list.js';
import { createObjectType, deleteObjectType, listObjectTypes, updateObjectType } from '../../services/object-types.js';
import { readBounds } from '../../services/read-budget.js';
import { quote } from '../../util/quote.js';
import { bodyOf } from './bodies.js';
import { readV1Objects } from './objects-read.js';
import { v1Route, type V1Route } from './route.js';

const BUCKET = paramSet(['read_key', 'depth']);
const TYPES = paramSet(['read_key']);
const MEDIA = paramSet(['read_key', 'limit', 'skip']);
/** v1/v2 media sorts → v3's (`size` is one of them). */
const MEDIA_SORTS: Readonly<Record<string, string>> = {
  created: 'created_at',
  '-created': '-created_at',
  size: 'size',
  '-size': '-size',
  random: 'random',
};

/** The body without the key fields v1 clients put into every write body. */
function withoutKeys(raw: unknown): Record<string, unknown> {
  const { write_key: _w, read_key: _r, ...rest } = bodyOf(raw);
  return rest;
}

function mediaSort(raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const sort = typeof raw === 'string' ? MEDIA_SORTS[raw] : undefined;
  if (sort === undefined)
    throw new BadRequestError(
      `Invalid parameters: sort must be one of ${Object.keys(MEDIA_SORTS).join(', ')}, got ${typeof raw === 'string' ? quote(raw) : 'several values'}`,
      'invalid_parameter',
    );
  return sort;
}

/** The Bucket itself, its Object types and media, as v1 addresses them. */
export function bucketRoutes(config: Config, db: Db, state: AppState): V1Route[] {
  const body = writeBody(config.jsonBodyLimit);
  const { writes } = state;
  return [
    v1Route('get', '/:slug', BUCKET, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const { depth } = readParams(res, BUCKET);
      const paging = { limit: 1000, skip: 0, depth };
      const objects = await readV1Objects(db, config, state, req, res, paging).then(
        (page) => page.objects,
        (err: unknown) => {
          if (err instanceof Error && 'code' in err && err.code === 'no_match') return [];
          throw err;
        },
      );
      const types = await listObjectTypes(db, bucket);
      const media = await listMedia(
        db,
        bucket,
        { query: undefined, sort: undefined, props: null, limit: 1000, skip: 0, after: undefined },
        readBounds(config).maxBytes,
      );
      sendJson(res, 200, {
        bucket: {
          _id: bucket._id.toHexString(),
          slug: bucket.slug,
          objects,
          object_types: types.map(renderObjectType),
          media: media.docs.map((m) => renderMedia(m, config, bucket)),
        },
      });
    }),
    v1Route('get', '/:slug/object-types', TYPES, requireRead, async (_req, res) => {
      const types = await listObjectTypes(db, bucketOf(res));
      sendJson(res, 200, { object_types: types.map(renderObjectType) });
    }),
    v1Route('post', '/:slug/add-object-type', NO_PARAMS, body, requireWrite, async (req, res) => {
      const type = await createObjectType(writes, bucketOf(res), withoutKeys(req.body));
      sendJson(res, 200, { object_type: renderObjectType(type) });
    }),
    v1Route('put', '/:slug/edit-object-type', NO_PARAMS, body, requireWrite, async (req, res) => {
      const { slug, ...patch } = withoutKeys(req.body);
      if (typeof slug !== 'string' || slug === '')
        throw new BadRequestError('Name the Object type: send its slug', 'invalid_body');
      const type = await updateObjectType(writes, bucketOf(res), slug, patch);
      sendJson(res, 200, { object_type: renderObjectType(type) });
    }),
    v1Route('delete', '/:slug/object-types/:type_slug', NO_PARAMS, body, requireWrite, async (req, res) => {
      const slug = String(req.params.type_slug);
      await deleteObjectType(writes, bucketOf(res), slug, bodyOf(req.body ?? {}).trigger_webhook === true);
      sendJson(res, 200, { message: `Object Type with slug '${slug}' deleted successfully from bucket.` });
    }),
    v1Route('get', '/:slug/media', MEDIA, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const { limit, skip } = readParams(res, MEDIA);
      const folder = req.query.folder;
      const query = typeof folder === 'string' && folder !== '' ? JSON.stringify({ folder }) : undefined;
      const sort = mediaSort(req.query.sort);
      const page = await listMedia(
        db,
        bucket,
        { query, sort, props: null, limit, skip, after: undefined, sortTarget: 'legacy-media' },
        readBounds(config).maxBytes,
      );
      if (page.docs.length === 0) throw noMatch('media', bucket.slug);
      const media = page.docs.map((m) => {
        const { id, ...rest } = renderMedia(m, config, bucket);
        return { _id: id, ...rest };
      });
      sendJson(res, 200, { media, total: page.total });
    }),
    v1Route('delete', '/:slug/media/:media_id', NO_PARAMS, body, requireWrite, async (req, res) => {
      const id = String(req.params.media_id);
      await deleteMedia(writes, bucketOf(res), id, bodyOf(req.body ?? {}).trigger_webhook === true);
      sendJson(res, 200, { message: `Media with id '${id}' deleted successfully from bucket.` });
    }),
  ];
}
