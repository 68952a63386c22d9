import type { Db } from 'mongodb';
import type { AppState } from '../../../app-state.js';
import type { Config } from '../../../config.js';
import { sendJson } from '../../../http/respond.js';
import { onlyParams, recordedRevisions } from '../../../merge-requests/recorded.js';
import { bucketOf } from '../../../http/request.js';
import { readParams } from '../../../http/request.js';
import { pickProps } from '../../../query/props.js';
import { paramSet } from '../../../query/read-params.js';
import { route, type RouteDef } from '../../../routes/route-table.js';
import { renderRevision } from '../../../render/revisions.js';
import { objectRenderContext } from '../../../render/objects.js';
import { readAccess } from '../../../routes/access.js';

const NAMES = ['read_key', 'limit', 'skip', 'props'] as const;
const PAGE = paramSet(NAMES, {}, onlyParams(NAMES));

/**
 * `GET /buckets/:slug/merge-requests/:id/objects`: the request's Objects as it recorded them, each
 * an Object (`id` the Object's) with the id of the revision it was recorded from.
 */
export function mergeRequestObjectsV2(config: Config, db: Db, state: AppState): RouteDef {
  const path = '/buckets/:slug/merge-requests/:merge_request_id/objects';
  return route('get', path, PAGE, readAccess('objects'), async (req, res) => {
    const bucket = bucketOf(res);
    const params = readParams(res, PAGE);
    const { revisions, total } = await recordedRevisions(db, bucket, String(req.params.merge_request_id), params);
    const ctx = await objectRenderContext(db, config, state.types, bucket);
    const objects = revisions.map((r) => {
      const { id, object_id, reason: _reason, ...rest } = renderRevision(r, ctx);
      return pickProps({ id: object_id, ...rest, revision_id: id }, params.props);
    });
    sendJson(res, 200, { objects, total });
  });
}
