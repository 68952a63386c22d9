import { requireRead } from '../middleware/authenticate.js';
import { sendJson } from '../http/respond.js';
import { paramSet } from '../query/read-params.js';
import { route, type RouteDef } from './route-table.js';

/** Blocks are not configurable yet: every Bucket lists none. */
export function blocksRoutes(): RouteDef[] {
  return [
    route('get', '/buckets/:slug/blocks', paramSet(['read_key']), requireRead, (_req, res) => {
      sendJson(res, 200, { blocks: [] });
    }),
  ];
}
