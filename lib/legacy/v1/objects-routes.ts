import type { Response } from 'express';
import type { Db } from 'mongodb';
import type { AppState } from '../../cache/app-state.js';
import type { Config } from '../../config.js';
import { sendJson } from '../../http/respond.js';
import { requireRead, requireWrite } from '../../middleware/authenticate.js';
import { bucketOf } from '../../middleware/load-bucket.js';
import { readParams } from '../../middleware/read-params.js';
import { writeBody } from '../../middleware/write-body.js';
import { NO_PARAMS, paramSet } from '../../query/read-params.js';
import { renderObject } from '../../serializers/object.js';
import type { ObjectDoc } from '../../db/collections.js';
import { removeObject } from '../../services/object-delete.js';
import { createObject, updateObject } from '../../services/object-writes.js';
import { objectRenderContext } from '../../services/render-context.js';
import { bodyOf, v3ObjectBody } from './bodies.js';
import { objectIdBySlug, objectIdOf } from './find-object.js';
import { toV1Object } from './object-shape.js';
import { readV1Objects } from './objects-read.js';
import { revisionRoutes } from './revisions-routes.js';
import { v1Route, type V1Route } from './route.js';

export const V1_LIST = paramSet(['read_key', 'limit', 'skip', 'depth', 'useCache']);
const V1_ONE = paramSet(['read_key', 'depth', 'useCache']);

export function objectRoutes(config: Config, db: Db, state: AppState): V1Route[] {
  const body = writeBody(config.jsonBodyLimit);
  const { writes } = state;
  const answer = async (res: Response, doc: ObjectDoc): Promise<void> => {
    const bucket = bucketOf(res);
    const ctx = await objectRenderContext(db, config, state.types, bucket);
    sendJson(res, 200, { object: toV1Object(renderObject(doc, ctx), ctx.types.get(doc.type), false) });
  };
  const list = (fixed: (p: Record<string, string>) => object[]) =>
    v1Route('get', '', V1_LIST, requireRead, async (req, res) => {
      const paging = readParams(res, V1_LIST);
      const page = await readV1Objects(
        db,
        config,
        state,
        req,
        res,
        paging,
        fixed(req.params as Record<string, string>),
      );
      sendJson(res, 200, { objects: page.objects, total: page.total, limit: paging.limit, skip: paging.skip });
    });
  const at = (path: string, r: V1Route): V1Route => ({ ...r, path });
  return [
    at(
      '/:slug/objects',
      list(() => []),
    ),
    at(
      '/:slug/object-type/:type_slug',
      list((p) => [{ type: p.type_slug }]),
    ),
    at(
      '/:slug/object-type/:type_slug/search',
      list((p) => [{ type: p.type_slug }]),
    ),
    v1Route('get', '/:slug/object/:object_slug', V1_ONE, requireRead, async (req, res) => {
      const { depth } = readParams(res, V1_ONE);
      const slug = String(req.params.object_slug);
      const page = await readV1Objects(db, config, state, req, res, { limit: 1, skip: 0, depth }, [{ slug }]);
      sendJson(res, 200, { object: page.objects[0] });
    }),
    v1Route('post', '/:slug/add-object', NO_PARAMS, body, requireWrite, async (req, res) => {
      const { body: v3, notify } = v3ObjectBody(bodyOf(req.body), 'create');
      await answer(res, await createObject(writes, bucketOf(res), v3, { notify }));
    }),
    v1Route('put', '/:slug/edit-object', NO_PARAMS, body, requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const id = await objectIdOf(db, bucket, req.body);
      const { body: v3, notify } = v3ObjectBody(bodyOf(req.body), 'edit');
      await answer(res, await updateObject(writes, bucket, id, v3, { notify }));
    }),
    v1Route('patch', '/:slug/edit-object-metafields', NO_PARAMS, body, requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const raw = bodyOf(req.body);
      const id = await objectIdOf(db, bucket, raw);
      const { body: v3, notify } = v3ObjectBody({ metafields: raw.metafields ?? [] }, 'edit');
      await answer(res, await updateObject(writes, bucket, id, v3, { notify }));
    }),
    v1Route('delete', '/:slug/objects/:object_slug', NO_PARAMS, body, requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const slug = String(req.params.object_slug);
      const id = await objectIdBySlug(db, bucket, slug, bodyOf(req.body ?? {}));
      await removeObject(writes, bucket, id, bodyOf(req.body ?? {}).trigger_webhook === true);
      sendJson(res, 200, { message: `Object with slug '${slug}' deleted successfully from bucket.` });
    }),
    v1Route('delete', '/:slug/delete-object', NO_PARAMS, body, requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const raw = bodyOf(req.body);
      const id = await objectIdOf(db, bucket, raw);
      await removeObject(writes, bucket, id, raw.trigger_webhook === true);
      sendJson(res, 200, { message: `Object '${id}' deleted successfully from bucket.` });
    }),
    ...revisionRoutes(config, db, state),
  ];
}
