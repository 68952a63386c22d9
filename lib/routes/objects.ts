import type { Db } from 'mongodb';
import type { AppState } from '../cache/app-state.js';
import type { Config } from '../config.js';
import { noMatch } from '../errors/not-found.js';
import { cachedRead } from '../http/cached-read.js';
import { previewAwareStatus } from '../http/preview-status.js';
import { sendJson } from '../http/respond.js';
import { requireRead, requireWrite } from '../middleware/authenticate.js';
import { writeBody } from '../middleware/write-body.js';
import { bucketOf } from '../middleware/load-bucket.js';
import { readParams } from '../middleware/read-params.js';
import { pickProps } from '../query/props.js';
import { DELETE_PARAMS, NO_PARAMS, paramSet } from '../query/read-params.js';
import { renderObject, renderObjects } from '../serializers/object.js';
import type { ObjectList, ObjectResponse, Picked } from '../serializers/responses.js';
import { listObjects } from '../services/object-list.js';
import { getObjectExpanded } from '../services/object-read.js';
import { readBounds } from '../services/read-budget.js';
import { removeObject } from '../services/object-delete.js';
import { createObject, updateObject } from '../services/object-writes.js';
import { objectRenderContext } from '../services/render-context.js';
import { route, type RouteDef } from './route-table.js';

const LIST = paramSet([
  'read_key',
  'preview_token',
  'query',
  'props',
  'status',
  'sort',
  'limit',
  'skip',
  'after',
  'depth',
  'useCache',
]);
const ONE = paramSet(['read_key', 'preview_token', 'props', 'status', 'depth', 'useCache']);

export function objectRoutes(config: Config, db: Db, state: AppState): RouteDef[] {
  const { reads: cache, types: bucketTypes, writes, previewSecret, totals } = state;
  const body = writeBody(config.jsonBodyLimit);
  const base = '/buckets/:slug/objects';
  const one = `${base}/:object_id`;
  const bounds = readBounds(config);
  return [
    route('get', base, LIST, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const params = readParams(res, LIST);
      const status = await previewAwareStatus(res, previewSecret, params.preview_token, params.status);
      await cachedRead(cache, req, res, params.useCache, async () => {
        const types = await bucketTypes.of(db, bucket);
        const { docs, total } = await listObjects(db, bucket, types, { ...params, status }, bounds, totals);
        if (docs.length === 0) throw noMatch('objects', bucket.slug);
        const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
        return {
          objects: renderObjects(docs, ctx).map((o) => pickProps(o, params.props)),
          total,
        } satisfies ObjectList;
      });
    }),
    route('post', base, NO_PARAMS, body, requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const doc = await createObject(writes, bucket, req.body);
      const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
      sendJson(res, 200, { object: renderObject(doc, ctx) } satisfies ObjectResponse);
    }),
    route('get', one, ONE, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const params = readParams(res, ONE);
      const status = await previewAwareStatus(res, previewSecret, params.preview_token, params.status);
      await cachedRead(cache, req, res, params.useCache, async () => {
        const doc = await getObjectExpanded(
          db,
          bucket,
          String(req.params.object_id),
          { status, depth: params.depth },
          bounds,
        );
        const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
        return { object: pickProps(renderObject(doc, ctx), params.props) } satisfies ObjectResponse<Picked>;
      });
    }),
    route('patch', one, NO_PARAMS, body, requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const doc = await updateObject(writes, bucket, String(req.params.object_id), req.body);
      const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
      sendJson(res, 200, { object: renderObject(doc, ctx) } satisfies ObjectResponse);
    }),
    route('delete', one, DELETE_PARAMS, requireWrite, async (req, res) => {
      const id = String(req.params.object_id);
      await removeObject(writes, bucketOf(res), id, readParams(res, DELETE_PARAMS).trigger_webhook);
      sendJson(res, 200, { message: `Object with id '${id}' deleted successfully from bucket.` });
    }),
  ];
}
