import type { Request, Response } from 'express';
import type { Db } from 'mongodb';
import type { AppState } from '../../cache/app-state.js';
import type { Config } from '../../config.js';
import { noMatch } from '../../errors/not-found.js';
import { bucketOf } from '../../middleware/load-bucket.js';
import { pickProps } from '../../query/props.js';
import { renderObjects } from '../../serializers/object.js';
import { listObjects } from '../../services/object-list.js';
import { readBounds } from '../../services/read-budget.js';
import { objectRenderContext } from '../../services/render-context.js';
import { parseV1Read, type V1ReadParams } from './list-params.js';
import { toV1Object, type V1Object } from './object-shape.js';

export interface Paging {
  limit: number;
  skip: number;
  depth: number;
}

/**
 * One page of Objects in the v1 shape, read by the v3 list engine: v1 parameters become a v3
 * `query` first, so the same validation, limits and regex safety apply.
 */
export async function readV1Objects(
  db: Db,
  config: Config,
  state: AppState,
  req: Request,
  res: Response,
  paging: Paging,
  fixed: object[] = [],
): Promise<{ objects: V1Object[]; total: number; params: V1ReadParams }> {
  const bucket = bucketOf(res);
  const types = await state.types.of(db, bucket);
  const params = parseV1Read(req.query, types.values(), fixed);
  const { docs, total } = await listObjects(
    db,
    bucket,
    types,
    { query: params.query, sort: params.sort, props: params.props, status: params.status, after: undefined, ...paging },
    readBounds(config),
  );
  if (docs.length === 0) throw noMatch('objects', bucket.slug);
  const ctx = await objectRenderContext(db, config, state.types, bucket);
  const objects = renderObjects(docs, ctx).map((o, i) => {
    const slug = docs[i]?.type;
    return toV1Object(
      pickProps(o, params.props),
      slug === undefined ? undefined : types.get(slug),
      params.hideMetafields,
    );
  });
  return { objects, total, params };
}
