import type { Db } from 'mongodb';
import type { AppState } from '../../../app-state.js';
import type { Config } from '../../../config.js';
import { onlyParams, recordedRevisions } from '../../../merge-requests/recorded.js';
import { bucketOf } from '../../../http/request.js';
import { readParams } from '../../../http/request.js';
import { pickProps } from '../../../query/props.js';
import { paramSet } from '../../../query/read-params.js';
import { objectRenderContext } from '../../../render/objects.js';
import type { V1ParamName } from './list-params.js';
import { toV1Revision } from './object-shape.js';
import { readV1Params } from './objects-read.js';
import { sendRead, v1Route, type V1Route } from './route.js';
import { readAccess } from '../../../routes/access.js';

const NAMES: readonly V1ParamName[] = ['props', 'hide_metafields'];
const PAGE = paramSet(['read_key', 'limit', 'skip'], {}, onlyParams(['read_key', 'limit', 'skip', ...NAMES]));

/** `GET /:slug/merge-requests/:id/objects`: the request's Objects as it recorded them, in the v1 shape. */
export function mergeRequestObjectsV1(config: Config, db: Db, state: AppState): V1Route {
  const route = v1Route(
    'get',
    '/:slug/merge-requests/:merge_request_id/objects',
    PAGE,
    readAccess('objects'),
    async (req, res) => {
      const bucket = bucketOf(res);
      const page = readParams(res, PAGE);
      const { params } = await readV1Params(db, state, req, res, NAMES);
      await sendRead(res, async () => {
        const id = String(req.params.merge_request_id);
        const { revisions, total } = await recordedRevisions(db, bucket, id, page);
        const ctx = await objectRenderContext(db, config, state.types, bucket);
        const objects = revisions.map((r) => pickProps(toV1Revision(r, ctx, params.hideMetafields), params.props));
        return { objects, total, limit: page.limit, skip: page.skip };
      });
    },
  );
  return { ...route, v1Params: NAMES };
}
