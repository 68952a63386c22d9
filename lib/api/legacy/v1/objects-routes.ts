import type { Response } from 'express';
import type { Db } from 'mongodb';
import type { AppState } from '../../../app-state.js';
import type { Config } from '../../../config.js';
import { typeScopeOf } from '../../../accounts/type-scope.js';
import type { ObjectDoc } from '../../../db/collections.js';
import { idempotencyOf } from '../../../middleware/idempotency.js';
import { sendJson } from '../../../http/respond.js';
import { bucketOf } from '../../../http/request.js';
import { readParams } from '../../../http/request.js';
import { writeBody } from '../../../middleware/write-body.js';
import { DELETE_PARAMS, NO_PARAMS, paramSet } from '../../../query/read-params.js';
import { renderObject } from '../../../render/objects.js';
import { removeObject } from '../../../objects/write/object-delete.js';
import { createObject, updateObject } from '../../../objects/write/object-writes.js';
import { objectRenderContext } from '../../../render/objects.js';
import { bodyOf, triggered, v3MetafieldsEdit, v3ObjectBody } from './bodies.js';
import { metafieldOwnerOf, objectIdBySlug, objectNamedBy } from '../../../objects/find-object.js';
import { effectiveMetafields, typeWithOwn } from '../../../metafields/own.js';
import { V1_OBJECT_LIST_NAMES, type V1ParamName } from './list-params.js';
import { toV1Object } from './object-shape.js';
import { readV1Objects, readV1Params } from './objects-read.js';
import { readOneV1Object } from './object-one.js';
import { mergeRequestObjectsV1 } from './merge-request-objects.js';
import { revisionRoutes } from './revisions-routes.js';
import { sendRead, v1Route, type V1Route } from './route.js';
import {
  readAccess,
  writeAccess,
  BY_PATH_SLUG,
  BY_PATH_TYPE,
  NAMED_IN_BODY,
  type ObjectsTouched,
} from '../../../routes/access.js';

const V1_LIST = paramSet(['read_key', 'limit', 'skip', 'depth', 'useCache']);

const LIST_NAMES: readonly V1ParamName[] = V1_OBJECT_LIST_NAMES;
/** The type is in the path; the deprecated search also matches substrings and related slugs. */
const TYPE_NAMES = LIST_NAMES.filter((n) => n !== 'type');
const SEARCH_NAMES: readonly V1ParamName[] = [...TYPE_NAMES, 'metafield_value_has', 'metafield_object_slug'];

/** Object lists, reads and writes as v1 addresses them; every write goes through the v3 services. */
export function objectRoutes(config: Config, db: Db, state: AppState): V1Route[] {
  const body = writeBody(config.jsonBodyLimit);
  const { writes } = state;
  /**
   * The Metafields of the type a write names (by slug, or through the Object's id, then with the
   * Object's own), to read v1 strings by.
   */
  const defsOf = async (res: Response, typeSlug: unknown, objectId?: string) => {
    const bucket = bucketOf(res);
    const named =
      objectId === undefined ? { type: typeSlug, own: undefined } : await metafieldOwnerOf(db, bucket, objectId);
    const type = typeof named.type === 'string' ? (await state.types.of(db, bucket)).get(named.type) : undefined;
    return type ? effectiveMetafields(type.metafields, named.own) : undefined;
  };
  const answer = async (res: Response, doc: ObjectDoc): Promise<void> => {
    const ctx = await objectRenderContext(db, config, state.types, bucketOf(res));
    const type = ctx.types.get(doc.type);
    sendJson(res, 200, {
      object: toV1Object(renderObject(doc, ctx), type && typeWithOwn(type, doc.own_metafields), false),
    });
  };
  const list = (
    path: string,
    touched: ObjectsTouched,
    names: readonly V1ParamName[],
    fixed: (p: Record<string, string>) => object[],
  ) => ({
    ...v1Route('get', path, V1_LIST, readAccess('objects', touched), async (req, res) => {
      const paging = readParams(res, V1_LIST);
      const read = await readV1Params(db, state, req, res, names, fixed(req.params as Record<string, string>));
      await sendRead(res, async () => {
        const page = await readV1Objects(db, config, state, res, read, paging);
        return { objects: page.objects, total: page.total, limit: paging.limit, skip: paging.skip };
      });
    }),
    v1Params: names,
  });
  return [
    list('/:slug/objects', { list: true, type: { query: 'type' } }, LIST_NAMES, () => []),
    list('/:slug/object-type/:type_slug', BY_PATH_TYPE, TYPE_NAMES, (p) => [{ type: p.type_slug }]),
    list('/:slug/object-type/:type_slug/search', BY_PATH_TYPE, SEARCH_NAMES, (p) => [{ type: p.type_slug }]),
    readOneV1Object(config, db, state),
    mergeRequestObjectsV1(config, db, state),
    v1Route(
      'post',
      '/:slug/add-object',
      NO_PARAMS,
      writeAccess('objects', { creates: true, type: { body: ['type_slug', 'type'] } }),
      body,
      async (req, res) => {
        const raw = bodyOf(req.body);
        const defs = await defsOf(res, raw.type_slug ?? raw.type);
        const { body: v3, notify, definitions } = v3ObjectBody(raw, 'create', defs);
        const idempotency = idempotencyOf(res);
        await answer(
          res,
          await createObject(state.writesFor(res), bucketOf(res), v3, { notify, idempotency, definitions }),
        );
      },
    ),
    v1Route('put', '/:slug/edit-object', NO_PARAMS, writeAccess('objects', NAMED_IN_BODY), body, async (req, res) => {
      const bucket = bucketOf(res);
      const named = await objectNamedBy(db, bucket, req.body, typeScopeOf(res));
      const defs = await defsOf(res, undefined, named.id);
      const mode = named.bySlug ? 'edit-by-slug' : 'edit-by-id';
      const { body: v3, notify, definitions } = v3ObjectBody(bodyOf(req.body), mode, defs);
      await answer(res, await updateObject(state.writesFor(res), bucket, named.id, v3, { notify, definitions }));
    }),
    v1Route(
      'patch',
      '/:slug/edit-object-metafields',
      NO_PARAMS,
      writeAccess('objects', NAMED_IN_BODY),
      body,
      async (req, res) => {
        const bucket = bucketOf(res);
        const raw = bodyOf(req.body);
        // A malformed body is refused before the Object is looked up; its values are read once its type is known.
        v3MetafieldsEdit(raw);
        const { id } = await objectNamedBy(db, bucket, raw, typeScopeOf(res));
        const { body: v3, notify, definitions } = v3MetafieldsEdit(raw, await defsOf(res, undefined, id));
        await answer(res, await updateObject(state.writesFor(res), bucket, id, v3, { notify, definitions }));
      },
    ),
    v1Route(
      'delete',
      '/:slug/objects/:object_slug',
      DELETE_PARAMS,
      writeAccess('objects', BY_PATH_SLUG),
      body,
      async (req, res) => {
        const bucket = bucketOf(res);
        const slug = String(req.params.object_slug);
        const raw = bodyOf(req.body ?? {});
        const id = await objectIdBySlug(db, bucket, slug, raw, typeScopeOf(res));
        await removeObject(writes, bucket, id, triggered(res, raw));
        sendJson(res, 200, { message: `Object with slug '${slug}' deleted successfully from bucket.` });
      },
    ),
    // The earlier clients' form: the Object named in the body.
    v1Route(
      'delete',
      '/:slug/delete-object',
      DELETE_PARAMS,
      writeAccess('objects', NAMED_IN_BODY),
      body,
      async (req, res) => {
        const bucket = bucketOf(res);
        const raw = bodyOf(req.body);
        const { id } = await objectNamedBy(db, bucket, raw, typeScopeOf(res));
        await removeObject(writes, bucket, id, triggered(res, raw));
        sendJson(res, 200, { message: `Object with id '${id}' deleted successfully from bucket.` });
      },
    ),
    ...revisionRoutes(config, db, state),
  ];
}
