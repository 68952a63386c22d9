import type { Db } from 'mongodb';
import type { AppState } from '../../app-state.js';
import type { Config } from '../../config.js';
import { sendJson } from '../../http/respond.js';
import {
  closeMergeRequest,
  createMergeRequest,
  getMergeRequest,
  listMergeRequests,
} from '../../merge-requests/manage.js';
import { mergeMergeRequest } from '../../merge-requests/merge.js';
import { renderMergeRequest } from '../../merge-requests/render.js';
import { bucketOf } from '../../http/request.js';
import { actorOf } from '../../accounts/request-account.js';
import { readParams } from '../../http/request.js';
import { writeBody } from '../../middleware/write-body.js';
import { NO_PARAMS, paramSet } from '../../query/read-params.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { writeAccess } from '../../routes/access.js';

const LIST = paramSet(['limit', 'skip']);

/** Merge requests (beta). Every route takes the write key: they show and publish drafts. */
export function mergeRequestRoutes(config: Config, db: Db, state: AppState): RouteDef[] {
  const body = writeBody(config.jsonBodyLimit);
  const base = '/buckets/:slug/merge-requests';
  const one = `${base}/:merge_request_id`;
  const idOf = (params: Record<string, unknown>) => String(params.merge_request_id);
  return [
    route('get', base, LIST, writeAccess('objects'), async (_req, res) => {
      const params = readParams(res, LIST);
      const { docs, total } = await listMergeRequests(db, bucketOf(res), params);
      sendJson(res, 200, { merge_requests: docs.map(renderMergeRequest), total });
    }),
    route('post', base, NO_PARAMS, writeAccess('objects'), body, async (req, res) => {
      const created = await createMergeRequest(state.writesFor(res), bucketOf(res), req.body);
      sendJson(res, 200, { merge_request: renderMergeRequest(created) });
    }),
    route('get', one, NO_PARAMS, writeAccess('objects'), async (req, res) => {
      sendJson(res, 200, {
        merge_request: renderMergeRequest(await getMergeRequest(db, bucketOf(res), idOf(req.params))),
      });
    }),
    route('post', `${one}/merge`, NO_PARAMS, writeAccess('objects', { publishes: true }), async (req, res) => {
      const merged = await mergeMergeRequest(state.writesFor(res), bucketOf(res), idOf(req.params));
      sendJson(res, 200, { merge_request: renderMergeRequest(merged) });
    }),
    route('post', `${one}/close`, NO_PARAMS, writeAccess('objects'), async (req, res) => {
      const closed = await closeMergeRequest(db, bucketOf(res), idOf(req.params), actorOf(res));
      sendJson(res, 200, { merge_request: renderMergeRequest(closed) });
    }),
  ];
}
