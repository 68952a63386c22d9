import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { sendJson } from '../http/respond.js';
import { requireRead, requireWrite } from '../middleware/authenticate.js';
import { writeBody } from '../middleware/write-body.js';
import { bucketOf } from '../middleware/load-bucket.js';
import { booleanParam } from '../http/params.js';
import { renderObjectType } from '../serializers/object-type.js';
import {
  createObjectType,
  deleteObjectType,
  getObjectType,
  listObjectTypes,
  updateObjectType,
} from '../services/object-types.js';
import { route, type RouteDef } from './route-table.js';

export function objectTypeRoutes(config: Config, db: Db): RouteDef[] {
  const body = writeBody(config.jsonBodyLimit);
  const base = '/buckets/:slug/object-types';
  return [
    route('get', base, requireRead, async (req, res) => {
      const types = await listObjectTypes(db, bucketOf(res));
      sendJson(req, res, 200, { object_types: types.map(renderObjectType) });
    }),
    route('post', base, body, requireWrite, async (req, res) => {
      const type = await createObjectType(db, bucketOf(res), req.body);
      sendJson(req, res, 200, { object_type: renderObjectType(type) });
    }),
    route('get', `${base}/:type_slug`, requireRead, async (req, res) => {
      const type = await getObjectType(db, bucketOf(res), String(req.params.type_slug));
      sendJson(req, res, 200, { object_type: renderObjectType(type) });
    }),
    route('patch', `${base}/:type_slug`, body, requireWrite, async (req, res) => {
      const type = await updateObjectType(db, bucketOf(res), String(req.params.type_slug), req.body);
      sendJson(req, res, 200, { object_type: renderObjectType(type) });
    }),
    route('delete', `${base}/:type_slug`, requireWrite, async (req, res) => {
      // Webhooks are not delivered yet; the flag is validated so clients may already send it.
      booleanParam(req, 'trigger_webhook', false);
      const slug = String(req.params.type_slug);
      await deleteObjectType(db, bucketOf(res), slug);
      sendJson(req, res, 200, { message: `Object Type with slug '${slug}' deleted successfully from bucket.` });
    }),
  ];
}
