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
import { pickProps } from '../../query/props.js';
import { DELETE_PARAMS, NO_PARAMS, paramSet } from '../../query/read-params.js';
import { uploadHandlers } from '../../routes/media.js';
import { renderMedia } from '../../serializers/media.js';
import { deleteMedia } from '../../services/media.js';
import { listMedia } from '../../services/media-list.js';
import { createObjectType, deleteObjectType, listObjectTypes, updateObjectType } from '../../services/object-types.js';
import { readBounds } from '../../services/read-budget.js';
import { bodyOf, triggered } from './bodies.js';
import { parseV1Read, type V1ParamName } from './list-params.js';
import { toV1ObjectType } from './object-shape.js';
import { readV1Objects, readV1Params } from './objects-read.js';
import { v1Route, type V1Route } from './route.js';

const BUCKET = paramSet(['read_key', 'depth']);
const TYPES = paramSet(['read_key']);
/** `sort` takes the v1/v2 media values (created, -created, size, -size, random) as well as v3's. */
const MEDIA = paramSet(['read_key', 'sort', 'limit', 'skip']);
const MEDIA_NAMES: readonly V1ParamName[] = ['props'];

/** The body without the key fields v1 clients put into every write body. */
function withoutKeys(raw: unknown): Record<string, unknown> {
  const { write_key: _w, read_key: _r, ...rest } = bodyOf(raw);
  return rest;
}

/** The Bucket itself, its Object types and media, as v1 addresses them. */
export function bucketRoutes(config: Config, db: Db, state: AppState): V1Route[] {
  const body = writeBody(config.jsonBodyLimit);
  const { writes } = state;
  const media = v1Route('get', '/:slug/media', MEDIA, requireRead, async (req, res) => {
    const bucket = bucketOf(res);
    const { limit, skip, sort } = readParams(res, MEDIA);
    const { props } = parseV1Read(req.query, MEDIA_NAMES, []);
    const folder = req.query.folder;
    if (folder !== undefined && typeof folder !== 'string')
      throw new BadRequestError('Invalid parameters: folder must be given once', 'invalid_parameter');
    const query = folder ? JSON.stringify({ folder }) : undefined;
    const q = { query, sort, props: null, limit, skip, after: undefined };
    const page = await listMedia(db, bucket, q, readBounds(config).maxBytes, 'legacy-media');
    if (page.docs.length === 0) throw noMatch('media', bucket.slug);
    const shaped = page.docs.map((m) => {
      const { id, ...rest } = renderMedia(m, config, bucket);
      return pickProps({ _id: id, ...rest }, props);
    });
    sendJson(res, 200, { media: shaped, total: page.total });
  });
  return [
    v1Route('get', '/:slug', BUCKET, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const { depth } = readParams(res, BUCKET);
      const read = await readV1Params(db, state, req, res, []);
      const objects = await readV1Objects(db, config, state, res, read, { limit: 1000, skip: 0, depth }).then(
        (page) => page.objects,
        (err: unknown) => {
          if (err instanceof Error && 'code' in err && err.code === 'no_match') return [];
          throw err;
        },
      );
      const types = await listObjectTypes(db, bucket);
      const q = { query: undefined, sort: undefined, props: null, limit: 1000, skip: 0, after: undefined };
      const files = await listMedia(db, bucket, q, readBounds(config).maxBytes);
      sendJson(res, 200, {
        bucket: {
          _id: bucket._id.toHexString(),
          slug: bucket.slug,
          objects,
          object_types: types.map(toV1ObjectType),
          media: files.docs.map((m) => {
            const { id, ...rest } = renderMedia(m, config, bucket);
            return { _id: id, ...rest };
          }),
        },
      });
    }),
    v1Route('get', '/:slug/object-types', TYPES, requireRead, async (_req, res) => {
      const types = await listObjectTypes(db, bucketOf(res));
      sendJson(res, 200, { object_types: types.map(toV1ObjectType) });
    }),
    v1Route('post', '/:slug/add-object-type', NO_PARAMS, body, requireWrite, async (req, res) => {
      const type = await createObjectType(writes, bucketOf(res), withoutKeys(req.body));
      sendJson(res, 200, { object_type: toV1ObjectType(type) });
    }),
    v1Route('put', '/:slug/edit-object-type', NO_PARAMS, body, requireWrite, async (req, res) => {
      const { slug, ...patch } = withoutKeys(req.body);
      if (typeof slug !== 'string' || slug === '')
        throw new BadRequestError('Name the Object type: send its slug', 'invalid_body');
      const type = await updateObjectType(writes, bucketOf(res), slug, patch);
      sendJson(res, 200, { object_type: toV1ObjectType(type) });
    }),
    v1Route('delete', '/:slug/object-types/:type_slug', DELETE_PARAMS, body, requireWrite, async (req, res) => {
      const slug = String(req.params.type_slug);
      await deleteObjectType(writes, bucketOf(res), slug, triggered(res, bodyOf(req.body ?? {})));
      sendJson(res, 200, { message: `Object Type with slug '${slug}' deleted successfully from bucket.` });
    }),
    // `folder` filters media, not Objects, so the route reads it itself.
    { ...media, v1Params: [...MEDIA_NAMES, 'folder'] },
    // The v1 upload address (on the upload host in v1), answered exactly like v3's upload.
    v1Route('post', '/:slug/media', NO_PARAMS, ...uploadHandlers(config, writes, state.media)),
    v1Route('delete', '/:slug/media/:media_id', DELETE_PARAMS, body, requireWrite, async (req, res) => {
      const id = String(req.params.media_id);
      await deleteMedia(writes, bucketOf(res), id, triggered(res, bodyOf(req.body ?? {})));
      sendJson(res, 200, { message: `Media with id '${id}' deleted successfully from bucket.` });
    }),
  ];
}
