import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { booleanParam } from '../http/params.js';
import { sendJson } from '../http/respond.js';
import { requireRead, requireWrite } from '../middleware/authenticate.js';
import { jsonBody } from '../middleware/json-body.js';
import { bucketOf } from '../middleware/load-bucket.js';
import { parseSingleReadParams } from '../query/single-read-params.js';
import { pickProps } from '../query/props.js';
import { objectRenderContext } from '../services/render-context.js';
import { renderObject } from '../serializers/object.js';
import { createObject, deleteObject, getObject, updateObject } from '../services/objects.js';
import { route, type RouteDef } from './route-table.js';

export function objectRoutes(config: Config, db: Db): RouteDef[] {
  const body = jsonBody(config.jsonBodyLimit);
  const base = '/buckets/:slug/objects';
  const one = `${base}/:object_id`;
  return [
    route('post', base, body, requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const doc = await createObject(db, bucket, req.body);
      const ctx = await objectRenderContext(db, config, bucket);
      sendJson(req, res, 200, { object: renderObject(doc, ctx) });
    }),
    route('get', one, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const params = parseSingleReadParams(req);
      const doc = await getObject(db, bucket, String(req.params.object_id), params.status);
      const ctx = await objectRenderContext(db, config, bucket);
      sendJson(req, res, 200, { object: pickProps(renderObject(doc, ctx), params.props) });
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
      await deleteObject(db, bucketOf(res), id);
      sendJson(req, res, 200, { message: `Object with id '${id}' deleted successfully from bucket.` });
    }),
  ];
}
