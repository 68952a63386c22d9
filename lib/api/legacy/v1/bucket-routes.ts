import type { Db } from 'mongodb';
import type { AppState } from '../../../app-state.js';
import type { Config } from '../../../config.js';
import { BadRequestError, HttpError } from '../../../errors/http-errors.js';
import { sendJson } from '../../../http/respond.js';
import { bucketOf } from '../../../http/request.js';
import { readParams } from '../../../http/request.js';
import { writeBody } from '../../../middleware/write-body.js';
import { DELETE_PARAMS, NO_PARAMS, paramSet } from '../../../query/read-params.js';
import { listMedia } from '../../../media/media-list.js';
import { createObjectType, deleteObjectType, updateObjectType } from '../../../object-types/object-types.js';
import { listObjectTypes } from '../../../store/type-reads.js';
import { readBounds } from '../../../query/read-budget.js';
import { bodyOf, triggered } from './bodies.js';
import { toV1Media } from './media-routes.js';
import { toV1ObjectType } from './object-shape.js';
import { readV1Objects, readV1Params } from './objects-read.js';
import { sendRead, v1Route, type V1Route } from './route.js';
import { readAccess, typeEditAccess, writeAccess } from '../../../routes/access.js';

const BUCKET = paramSet(['read_key', 'depth']);
const TYPES = paramSet(['read_key']);
/** What `GET /:slug` shows of each kind at most. */
const BUCKET_LISTS = 1000;

/** The body without the key fields v1 clients put into every write body. */
function withoutKeys(raw: unknown): Record<string, unknown> {
  const { write_key: _w, read_key: _r, ...rest } = bodyOf(raw);
  return rest;
}

/** The Bucket itself and its Object types, as v1 addresses them. */
export function bucketRoutes(config: Config, db: Db, state: AppState): V1Route[] {
  const body = writeBody(config.jsonBodyLimit);
  const { writes } = state;
  const bucketRead = v1Route('get', '/:slug', BUCKET, readAccess('bucket'), async (req, res) => {
    const bucket = bucketOf(res);
    const { depth } = readParams(res, BUCKET);
    const read = await readV1Params(db, state, req, res, []);
    await sendRead(res, async () => {
      const paging = { limit: BUCKET_LISTS, skip: 0, depth };
      const objects = await readV1Objects(db, config, state, res, read, paging).then(
        (page) => page.objects,
        (err: unknown) => {
          if (err instanceof HttpError && err.code === 'no_match') return [];
          throw err;
        },
      );
      const types = await listObjectTypes(db, bucket);
      const q = { query: undefined, sort: undefined, props: null, limit: BUCKET_LISTS, skip: 0, after: undefined };
      const files = await listMedia(db, bucket, q, readBounds(config).maxBytes);
      const media = files.docs.map((m) => toV1Media(m, config, bucket));
      const { slug } = bucket;
      return {
        bucket: { _id: bucket._id.toHexString(), slug, objects, object_types: types.map(toV1ObjectType), media },
      };
    });
  });
  return [
    bucketRead,
    // Paths match exactly as written, and the official v1 client's getBucket asks for `/v1/{slug}/`.
    { ...bucketRead, path: '/:slug/' },
    v1Route('get', '/:slug/object-types', TYPES, readAccess('object_types'), async (_req, res) => {
      const types = await listObjectTypes(db, bucketOf(res));
      sendJson(res, 200, { object_types: types.map(toV1ObjectType) });
    }),
    v1Route('post', '/:slug/add-object-type', NO_PARAMS, writeAccess('object_types'), body, async (req, res) => {
      const type = await createObjectType(writes, bucketOf(res), withoutKeys(req.body));
      sendJson(res, 200, { object_type: toV1ObjectType(type) });
    }),
    v1Route('put', '/:slug/edit-object-type', NO_PARAMS, typeEditAccess({ body: ['slug'] }), body, async (req, res) => {
      const { slug, ...patch } = withoutKeys(req.body);
      if (typeof slug !== 'string' || slug === '')
        throw new BadRequestError('Name the Object type: send its slug', 'invalid_body');
      const type = await updateObjectType(writes, bucketOf(res), slug, patch);
      sendJson(res, 200, { object_type: toV1ObjectType(type) });
    }),
    v1Route(
      'delete',
      '/:slug/object-types/:type_slug',
      DELETE_PARAMS,
      writeAccess('object_types'),
      body,
      async (req, res) => {
        const slug = String(req.params.type_slug);
        // v1, like v2, promised a deleted type's Objects stay: the same refusal (docs/legacy.md, "v1 routes").
        await deleteObjectType(writes, bucketOf(res), slug, triggered(res, bodyOf(req.body ?? {})), 'refuse');
        sendJson(res, 200, { message: `Object Type with slug '${slug}' deleted successfully from bucket.` });
      },
    ),
  ];
}
