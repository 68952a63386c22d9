import type { Request, Response } from 'express';
import type { Db } from 'mongodb';
import type { AppState } from '../../../app-state.js';
import type { Config } from '../../../config.js';
import type { ObjectTypeDoc } from '../../../db/collections.js';
import { typeScopeOf } from '../../../accounts/type-scope.js';
import { noMatch } from '../../../errors/not-found.js';
import { bucketOf } from '../../../http/request.js';
import { pickProps } from '../../../query/props.js';
import { renderObjects } from '../../../render/objects.js';
import { listObjects } from '../../../objects/list/object-list.js';
import { readBounds } from '../../../query/read-budget.js';
import { objectRenderContext } from '../../../render/objects.js';
import { objectIdsBySlug } from '../../../objects/find-object.js';
import { parseV1Read, type V1ParamName, type V1ReadParams } from './list-params.js';
import { toV1Object, type V1Object } from './object-shape.js';
import { typeWithOwn } from '../../../metafields/own.js';

export interface Paging {
  limit: number;
  skip: number;
  depth: number;
}

export interface V1Read {
  params: V1ReadParams;
  types: ReadonlyMap<string, ObjectTypeDoc>;
}

/** The v1 parameters `names` of a request, read against the Bucket's types (`fixed`: the route's own conditions). */
export async function readV1Params(
  db: Db,
  state: AppState,
  req: Request,
  res: Response,
  names: readonly V1ParamName[],
  fixed: object[] = [],
): Promise<V1Read> {
  const bucket = bucketOf(res);
  const types = await state.types.of(db, bucket);
  const bySlug = names.includes('metafield_object_slug') ? req.query.metafield_object_slug : undefined;
  const slugIds = typeof bySlug === 'string' && bySlug !== '' ? await objectIdsBySlug(db, bucket, bySlug) : [];
  return { params: parseV1Read(req.query, names, types.values(), { fixed, slugIds }), types };
}

/**
 * One page of Objects in the v1 shape, read by the v3 list engine: v1 parameters became a v3
 * `query` first, so the same validation, limits and regex safety apply.
 */
export async function readV1Objects(
  db: Db,
  config: Config,
  state: AppState,
  res: Response,
  { params, types }: V1Read,
  paging: Paging,
): Promise<{ objects: V1Object[]; total: number }> {
  const bucket = bucketOf(res);
  const { docs, total } = await listObjects(
    db,
    bucket,
    types,
    {
      query: params.query,
      sort: params.sort,
      props: params.projection,
      status: params.status,
      after: undefined,
      typeScope: typeScopeOf(res),
      ...paging,
    },
    readBounds(config),
    state,
  );
  if (docs.length === 0) throw noMatch('objects', bucket.slug);
  const ctx = await objectRenderContext(db, config, state.types, bucket);
  const objects = renderObjects(docs, ctx).map((o, i) => {
    const doc = docs[i];
    const type = doc?.type === undefined ? undefined : types.get(doc.type);
    const shaped = toV1Object(o, type && typeWithOwn(type, doc?.own_metafields), params.hideMetafields);
    return pickProps(shaped, params.props);
  });
  return { objects, total };
}
