import type { RequestHandler, Response } from 'express';
import type { Db } from 'mongodb';
import type { AppState } from '../../app-state.js';
import type { Config } from '../../config.js';
import { typeScopeOf } from '../../accounts/type-scope.js';
import { noMatch } from '../../errors/not-found.js';
import { cachedRead } from '../../middleware/cached-read.js';
import { idempotencyOf } from '../../middleware/idempotency.js';
import { previewAwareStatus } from '../../preview/preview-status.js';
import { sendJson } from '../../http/respond.js';
import { writeBody } from '../../middleware/write-body.js';
import { bucketOf } from '../../http/request.js';
import { readParams } from '../../http/request.js';
import { pickProps } from '../../query/props.js';
import { DELETE_PARAMS, NO_PARAMS, paramSet, type Params } from '../../query/read-params.js';
import { v1ListParamProblems } from '../../query/v1-list-params.js';
import { renderObject, renderObjects, type ProjectedApiObject, type RenderContext } from '../../render/objects.js';
import type { Picked } from '../../query/props.js';
import type { ObjectList, ObjectResponse, ReadObject } from '../../render/objects.js';
import type { Metafield } from '../../types/metafield.js';
import { sentDefinitions } from '../../http/request.js';
import { listObjects } from '../../objects/list/object-list.js';
import { getObjectExpanded } from '../../objects/object-read.js';
import { answersLive, liveField, liveVersions } from '../../objects/live-versions.js';
import { readBounds } from '../../query/read-budget.js';
import { removeObject } from '../../objects/write/object-delete.js';
import { createObject, updateObject } from '../../objects/write/object-writes.js';
import { objectRenderContext } from '../../render/objects.js';
import { listGeneration } from '../../objects/list/list-generation.js';
import { bucketFromMemory, readingAhead, route, type RouteDef } from '../../routes/route-table.js';
import { takeReadAhead } from '../../objects/objects.js';
import { readAccess, writeAccess, BY_OBJECT_ID } from '../../routes/access.js';
import { parseIfMatch, versionOf, versionTag } from '../../http/if-match.js';
import { objectGuard } from '../../http/if-match.js';

export const OBJECT_LIST_NAMES = [
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
  'allow_empty',
] as const;
export const OBJECT_ONE_NAMES = ['read_key', 'preview_token', 'props', 'status', 'depth', 'useCache'] as const;
export type ObjectListParams = Params<(typeof OBJECT_LIST_NAMES)[number]>;
export type ObjectParams = Params<(typeof OBJECT_ONE_NAMES)[number]>;

/** The v3 read parameters, plus the v1 filters a half-migrated client may still send (refused, see v1-list-params.ts). */
export const OBJECT_LIST = paramSet(OBJECT_LIST_NAMES, {}, v1ListParamProblems);
const ONE = paramSet(OBJECT_ONE_NAMES);

/** A version's fields beside each Object a read answers (v2's `metafields`, `own`: the Object's own Metafields); v3 adds none. */
export type ObjectAddition = (object: ProjectedApiObject, ctx: RenderContext, own: Metafield[] | undefined) => Picked;

/**
 * How a version reads its Object routes: its parameters (the v3 ones, maybe more) and what it
 * adds to each Object, decided from those parameters (null: nothing).
 */
export interface ObjectReadVersion {
  list: (res: Response) => ObjectListParams;
  one: (res: Response) => ObjectParams;
  addition: (res: Response) => ObjectAddition | null;
  /** Whether status any/draft reads tell which live version each Object has (live-versions.ts). */
  live?: true;
}

const V3_READS: ObjectReadVersion = {
  list: (res) => readParams(res, OBJECT_LIST),
  one: (res) => readParams(res, ONE),
  addition: () => null,
  live: true,
};

/** An Object narrowed to `props`, with what the version adds beside it. */
function shaped(
  o: ProjectedApiObject,
  ctx: RenderContext,
  props: readonly string[] | null,
  add: ObjectAddition | null,
  doc: ReadObject | undefined,
) {
  return add ? { ...pickProps(o, props), ...add(o, ctx, doc?.own_metafields) } : pickProps(o, props);
}

/** `o` with its live version beside it, when the read answers that (`found` not null). */
function withLive(o: Picked, found: ReadonlyMap<string, string> | null, doc: ReadObject | undefined): Picked {
  return found && doc ? { ...o, ...liveField(found, doc._id) } : o;
}

/** The Object list and single-Object reads; legacy versions answer with these same handlers. */
export function objectReadHandlers(
  config: Config,
  db: Db,
  state: AppState,
  version: ObjectReadVersion,
): { list: RequestHandler; one: RequestHandler } {
  const { reads: cache, types: bucketTypes, previewSecret } = state;
  const bounds = readBounds(config);
  return {
    list: async (req, res) => {
      const bucket = bucketOf(res);
      const params = version.list(res);
      const add = version.addition(res);
      const status = await previewAwareStatus(res, previewSecret, params.preview_token, params.status);
      // Kept types answer without a round trip: they change only with the Bucket's generation.
      const types = await bucketTypes.of(db, bucket);
      const generation = listGeneration(bucket, params.query, params.depth, types);
      await cachedRead(
        cache,
        req,
        res,
        params.useCache,
        async () => {
          const q = { ...params, status, typeScope: typeScopeOf(res) };
          const { docs, total } = await listObjects(db, bucket, types, q, bounds, state);
          if (docs.length === 0 && !params.allow_empty) throw noMatch('objects', bucket.slug);
          const live = version.live && answersLive(status, params.props);
          const [ctx, found] = await Promise.all([
            objectRenderContext(db, config, bucketTypes, bucket),
            live ? liveVersions(db, bucket._id, docs) : null,
          ]);
          return {
            objects: renderObjects(docs, ctx).map((o, i) =>
              withLive(shaped(o, ctx, params.props, add, docs[i]), found, docs[i]),
            ),
            total,
          } satisfies ObjectList;
        },
        generation,
      );
    },
    one: async (req, res) => {
      const bucket = bucketOf(res);
      const params = version.one(res);
      const add = version.addition(res);
      const status = await previewAwareStatus(res, previewSecret, params.preview_token, params.status);
      let read: string | undefined;
      const produce = async () => {
        const id = String(req.params.object_id);
        const opts = { status, depth: params.depth, typeScope: typeScopeOf(res) };
        const doc = await getObjectExpanded(db, bucket, id, opts, bounds);
        read = versionOf(doc.modified_at);
        const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
        const object = shaped(renderObject(doc, ctx), ctx, params.props, add, doc);
        // A published Object needs no read for it; a draft one read by id (live-versions.ts).
        if (version.live && answersLive(status, params.props))
          Object.assign(object, liveField(await liveVersions(db, bucket._id, [doc]), doc._id));
        return { object } satisfies ObjectResponse<Picked>;
      };
      await cachedRead(cache, req, res, params.useCache, produce, undefined, () => read);
    },
  };
}

export function objectRoutes(config: Config, db: Db, state: AppState): RouteDef[] {
  const { types: bucketTypes, writes } = state;
  const body = writeBody(config.jsonBodyLimit);
  const base = '/buckets/:slug/objects';
  const one = `${base}/:object_id`;
  const reads = objectReadHandlers(config, db, state, V3_READS);
  return [
    route('get', base, OBJECT_LIST, readAccess('objects', { list: true, type: { filter: 'type' } }), reads.list),
    bucketFromMemory(
      route(
        'post',
        base,
        NO_PARAMS,
        writeAccess('objects', { creates: true, type: { body: ['type'] } }),
        body,
        async (req, res) => {
          const bucket = bucketOf(res);
          const definitions = sentDefinitions(res);
          const doc = await createObject(state.writesFor(res), bucket, req.body, {
            idempotency: idempotencyOf(res),
            definitions,
          });
          const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
          res.set('ETag', versionTag(versionOf(doc)));
          sendJson(res, 200, { object: renderObject(doc, ctx) } satisfies ObjectResponse);
        },
      ),
    ),
    route('get', one, ONE, readAccess('objects', BY_OBJECT_ID), reads.one),
    readingAhead(
      bucketFromMemory(
        route('patch', one, NO_PARAMS, writeAccess('objects', BY_OBJECT_ID), body, async (req, res) => {
          const bucket = bucketOf(res);
          const id = String(req.params.object_id);
          const options = {
            definitions: sentDefinitions(res),
            current: takeReadAhead(res, id),
            ifVersion: objectGuard(parseIfMatch(req.get('if-match')), id),
          };
          const doc = await updateObject(state.writesFor(res), bucket, id, req.body, options);
          const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
          res.set('ETag', versionTag(versionOf(doc)));
          sendJson(res, 200, { object: renderObject(doc, ctx) } satisfies ObjectResponse);
        }),
      ),
      'object_id',
    ),
    bucketFromMemory(
      route('delete', one, DELETE_PARAMS, writeAccess('objects', BY_OBJECT_ID), async (req, res) => {
        const id = String(req.params.object_id);
        const guard = objectGuard(parseIfMatch(req.get('if-match')), id);
        await removeObject(writes, bucketOf(res), id, readParams(res, DELETE_PARAMS).trigger_webhook, guard);
        sendJson(res, 200, { message: `Object with id '${id}' deleted successfully from bucket.` });
      }),
    ),
  ];
}
