import type { Db } from 'mongodb';
import type { Response } from 'express';
import type { AppState } from '../../../app-state.js';
import type { Config } from '../../../config.js';
import type { BucketDoc } from '../../../db/collections.js';
import { BadRequestError } from '../../../errors/http-errors.js';
import { notFound } from '../../../errors/not-found.js';
import { sendJson } from '../../../http/respond.js';
import { bucketOf } from '../../../http/request.js';
import { readParams } from '../../../http/request.js';
import { writeBody } from '../../../middleware/write-body.js';
import { NO_PARAMS, paramSet, type StatusFilter } from '../../../query/read-params.js';
import { renderObject, type ProjectedApiObject, type RenderContext } from '../../../render/objects.js';
import { getObject } from '../../../objects/objects.js';
import { updateObject } from '../../../objects/write/object-writes.js';
import { objectRenderContext } from '../../../render/objects.js';
import { isPlainObject } from '../../../util/values.js';
import { route, type RouteDef } from '../../../routes/route-table.js';
import { metadataOfMetafields } from '../shared/metafield-values.js';
import type { Metafield } from '../../../types/metafield.js';
import { effectiveMetafields } from '../../../metafields/own.js';
import { readAccess, writeAccess, BY_OBJECT_ID } from '../../../routes/access.js';

const READ = paramSet(['read_key', 'status']);

/** A v2 Metafields edit: the v3 metadata patch it means, and its entries, which may define the Object's own Metafields. */
export interface MetafieldsEdit {
  metadata: Record<string, unknown>;
  definitions: unknown[];
}

/** A v2 Metafields body (`{metafields: [{key, value, ...}]}`) as the v3 metadata patch it means. */
export function metafieldsPatch(body: unknown): MetafieldsEdit {
  const list = isPlainObject(body) ? body.metafields : undefined;
  if (!Array.isArray(list) || list.length === 0) {
    throw new BadRequestError('body.metafields must be a non-empty array of {key, value}', 'invalid_body');
  }
  return { metadata: metadataOfMetafields(list, 'body.metafields'), definitions: list };
}

/** A v2 single-Metafield body (`{value, ...}`): `value` is content; with a `title`, a new key defines an own Metafield. */
export function metafieldPatch(key: string, body: unknown): MetafieldsEdit {
  if (!isPlainObject(body))
    throw new BadRequestError(`body must carry the value of Metafield '${key}'`, 'invalid_body');
  const entry = { ...body, key };
  return { metadata: metadataOfMetafields([entry], 'body'), definitions: [entry] };
}

/**
 * The v2 `metafields` array: the type's top-level Metafields, then the Object's `own`, each with
 * the Object's rendered value.
 */
export function metafieldsOf(
  object: ProjectedApiObject,
  ctx: RenderContext,
  own?: Metafield[],
): Record<string, unknown>[] {
  const ofType = (object.type === undefined ? undefined : ctx.types.get(object.type)?.metafields) ?? [];
  return effectiveMetafields(ofType, own).map((d) => ({ ...d, value: object.metadata?.[d.key] ?? null }));
}

/**
 * v2 Metafield routes: reads render the Object as v3 does; edits go through the one Object write
 * path (updateObject) as a metadata patch, so validation, revisions and events are exactly v3's.
 */
export function metafieldRoutes(config: Config, db: Db, state: AppState): RouteDef[] {
  const { types: bucketTypes } = state;
  const body = writeBody(config.jsonBodyLimit);
  const base = '/buckets/:slug/objects/:object_id/metafields';
  const read = async (bucket: BucketDoc, id: string, status: StatusFilter) => {
    const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
    const doc = await getObject(db, bucket, id, status);
    return metafieldsOf(renderObject(doc, ctx), ctx, doc.own_metafields);
  };
  /** The edit through the one Object write path, answered as the Object's Metafields now. */
  const patch = async (res: Response, id: string, { metadata, definitions }: MetafieldsEdit) => {
    const bucket = bucketOf(res);
    const doc = await updateObject(state.writesFor(res), bucket, id, { metadata }, { definitions });
    const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
    return metafieldsOf(renderObject(doc, ctx), ctx, doc.own_metafields);
  };
  return [
    route('get', base, READ, readAccess('objects', BY_OBJECT_ID), async (req, res) => {
      const metafields = await read(bucketOf(res), String(req.params.object_id), readParams(res, READ).status);
      sendJson(res, 200, { metafields, total: metafields.length });
    }),
    route('get', `${base}/:key`, READ, readAccess('objects', BY_OBJECT_ID), async (req, res) => {
      const bucket = bucketOf(res);
      const id = String(req.params.object_id);
      const key = String(req.params.key);
      const metafield = (await read(bucket, id, readParams(res, READ).status)).find((m) => m.key === key);
      if (!metafield) throw notFound('metafield', key, bucket.slug, id);
      sendJson(res, 200, { metafield });
    }),
    route('patch', base, NO_PARAMS, writeAccess('objects', BY_OBJECT_ID), body, async (req, res) => {
      const metafields = await patch(res, String(req.params.object_id), metafieldsPatch(req.body));
      sendJson(res, 200, { metafields, total: metafields.length });
    }),
    route('patch', `${base}/:key`, NO_PARAMS, writeAccess('objects', BY_OBJECT_ID), body, async (req, res) => {
      const key = String(req.params.key);
      const metafields = await patch(res, String(req.params.object_id), metafieldPatch(key, req.body));
      sendJson(res, 200, { metafield: metafields.find((m) => m.key === key) });
    }),
  ];
}
