import type { AppState } from '../../app-state.js';
import type { Config } from '../../config.js';
import { sendJson } from '../../http/respond.js';
import { bucketOf } from '../../http/request.js';
import { NO_PARAMS } from '../../query/read-params.js';
import { bucketUsage } from '../../buckets/plans.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { writeAccess } from '../../routes/access.js';

/** What the Bucket uses of its plan; the write key, as it speaks of the account rather than content. */
export function usageRoutes(config: Config, { writes, requests }: AppState): RouteDef[] {
  return [
    route('get', '/buckets/:slug/usage', NO_PARAMS, writeAccess('settings'), async (_req, res) => {
      res.set('Cache-Control', 'no-store');
      sendJson(res, 200, await bucketUsage(writes.db, bucketOf(res), config.planDefaults, requests));
    }),
  ];
}
