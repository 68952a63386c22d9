import { requireRead } from '../middleware/authenticate.js';
import { sendJson } from '../http/respond.js';
import { route, type RouteDef } from './route-table.js';

/** Blocks are not configurable yet: every Bucket lists none. */
export function blocksRoutes(): RouteDef[] {
  return [
    route('get', '/buckets/:slug/blocks', requireRead, (req, res) => {
      sendJson(req, res, 200, { blocks: [] });
    }),
  ];
}
