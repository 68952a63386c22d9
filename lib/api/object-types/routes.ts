import type { RequestHandler } from 'express';
import type { AppState } from '../../app-state.js';
import type { Config } from '../../config.js';
import { sendJson } from '../../http/respond.js';
import { writeBody } from '../../middleware/write-body.js';
import { bucketOf } from '../../http/request.js';
import { readParams } from '../../http/request.js';
import { DELETE_PARAMS, NO_PARAMS, paramSet } from '../../query/read-params.js';
import { renderObjectType } from '../../render/object-types.js';
import type { ObjectTypeList, ObjectTypeResponse } from '../../render/object-types.js';
import {
  createObjectType,
  deleteObjectType,
  updateObjectType,
  type TypeObjects,
} from '../../object-types/object-types.js';
import { getObjectType, listObjectTypes } from '../../store/type-reads.js';
import type { EventDeps } from '../../events/domain-events.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { readAccess, typeEditAccess, writeAccess } from '../../routes/access.js';
import { parseIfMatch, versionOf, versionTag } from '../../http/if-match.js';

const READ = paramSet(['read_key']);

/** Deletes an Object type; `objects` says what becomes of its Objects (legacy routes keep them). */
export function typeDeleteHandler(writes: EventDeps, objects: TypeObjects): RequestHandler {
  return async (req, res) => {
    const slug = String(req.params.type_slug);
    await deleteObjectType(writes, bucketOf(res), slug, readParams(res, DELETE_PARAMS).trigger_webhook, objects);
    sendJson(res, 200, { message: `Object Type with slug '${slug}' deleted successfully from bucket.` });
  };
}

export function objectTypeRoutes(config: Config, { writes }: AppState): RouteDef[] {
  const { db } = writes;
  const body = writeBody(config.jsonBodyLimit);
  const base = '/buckets/:slug/object-types';
  return [
    route('get', base, READ, readAccess('object_types'), async (_req, res) => {
      const types = await listObjectTypes(db, bucketOf(res));
      sendJson(res, 200, { object_types: types.map(renderObjectType) } satisfies ObjectTypeList);
    }),
    route('post', base, NO_PARAMS, writeAccess('object_types'), body, async (req, res) => {
      const type = await createObjectType(writes, bucketOf(res), req.body);
      sendJson(res, 200, { object_type: renderObjectType(type) } satisfies ObjectTypeResponse);
    }),
    route('get', `${base}/:type_slug`, READ, readAccess('object_types'), async (req, res) => {
      const type = await getObjectType(db, bucketOf(res), String(req.params.type_slug));
      sendJson(res, 200, { object_type: renderObjectType(type) } satisfies ObjectTypeResponse);
    }),
    route('patch', `${base}/:type_slug`, NO_PARAMS, typeEditAccess({ param: 'type_slug' }), body, async (req, res) => {
      const ifMatch = parseIfMatch(req.get('if-match'));
      const type = await updateObjectType(writes, bucketOf(res), String(req.params.type_slug), req.body, ifMatch);
      res.set('ETag', versionTag(versionOf(type)));
      sendJson(res, 200, { object_type: renderObjectType(type) } satisfies ObjectTypeResponse);
    }),
    route(
      'delete',
      `${base}/:type_slug`,
      DELETE_PARAMS,
      writeAccess('object_types'),
      typeDeleteHandler(writes, 'delete'),
    ),
  ];
}
