import type { Db } from 'mongodb';
import type { ReadCache } from '../cache/read-cache.js';
import type { Config } from '../config.js';
import { NotFoundError } from '../errors/http-errors.js';
import { cachedRead } from '../http/cached-read.js';
import { booleanParam, singleParam } from '../http/params.js';
import { previewAwareStatus } from '../http/preview-status.js';
import { sendJson } from '../http/respond.js';
import { requireRead, requireWrite } from '../middleware/authenticate.js';
import { jsonBody } from '../middleware/json-body.js';
import { bucketOf } from '../middleware/load-bucket.js';
import { parseListParams } from '../query/cursor.js';
import { parseProps, pickProps } from '../query/props.js';
import { parseSingleReadParams } from '../query/single-read-params.js';
import { renderObject, renderObjects } from '../serializers/object.js';
import { listObjects } from '../services/object-list.js';
import { getObjectExpanded } from '../services/object-read.js';
import { readBounds } from '../services/read-budget.js';
import { createObject, removeObject, updateObject } from '../services/object-writes.js';
import { bucketTypes, objectRenderContext } from '../services/render-context.js';
import { route, type RouteDef } from './route-table.js';

export function objectRoutes(config: Config, db: Db, cache: ReadCache): RouteDef[] {
  const body = jsonBody(config.jsonBodyLimit);
  const base = '/buckets/:slug/objects';
  const one = `${base}/:object_id`;
  const bounds = readBounds(config);
  return [
    route('get', base, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const params = parseListParams(req.query);
      const props = parseProps(singleParam(req, 'props'));
      params.status = await previewAwareStatus(req, res, db, config, params.status);
      await cachedRead(cache, req, res, params.useCache, async () => {
        const types = await bucketTypes(db, bucket);
        const { docs, total } = await listObjects(
          db,
          bucket,
          types,
          { query: singleParam(req, 'query'), sort: singleParam(req, 'sort'), props, params },
          bounds,
        );
        if (docs.length === 0) throw new NotFoundError(`No objects found in bucket '${bucket.slug}' for this query`);
        const ctx = await objectRenderContext(db, config, bucket);
        return { objects: renderObjects(docs, ctx).map((o) => pickProps(o, props)), total };
      });
    }),
    route('post', base, body, requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const doc = await createObject(db, bucket, req.body);
      const ctx = await objectRenderContext(db, config, bucket);
      sendJson(req, res, 200, { object: renderObject(doc, ctx) });
    }),
    route('get', one, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const params = parseSingleReadParams(req);
      params.status = await previewAwareStatus(req, res, db, config, params.status);
      await cachedRead(cache, req, res, params.useCache, async () => {
        const doc = await getObjectExpanded(db, bucket, String(req.params.object_id), params, bounds);
        const ctx = await objectRenderContext(db, config, bucket);
        return { object: pickProps(renderObject(doc, ctx), params.props) };
      });
    }),
    route('patch', one, body, requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const doc = await updateObject(db, bucket, String(req.params.object_id), req.body);
      const ctx = await objectRenderContext(db, config, bucket);
      sendJson(req, res, 200, { object: renderObject(doc, ctx) });
    }),
    route('delete', one, requireWrite, async (req, res) => {
      booleanParam(req, 'trigger_webhook', false);
      const id = String(req.params.object_id);
      await removeObject(db, bucketOf(res), id);
      sendJson(req, res, 200, { message: `Object with id '${id}' deleted successfully from bucket.` });
    }),
  ];
}
