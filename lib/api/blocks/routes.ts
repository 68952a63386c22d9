import type { Db } from 'mongodb';
import { bucketOf } from '../../http/request.js';
import { sendJson } from '../../http/respond.js';
import { paramSet } from '../../query/read-params.js';
import type { BlocksList } from '../../blocks/blocks.js';
import { listBlocks, renderBlock } from '../../blocks/blocks.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { readAccess } from '../../routes/access.js';

/** The Blocks installed in the Bucket (bucketctl install-block); an empty list when none. */
export function blocksRoutes(db: Db): RouteDef[] {
  return [
    route('get', '/buckets/:slug/blocks', paramSet(['read_key']), readAccess('bucket'), async (_req, res) => {
      const blocks = await listBlocks(db, bucketOf(res));
      sendJson(res, 200, { blocks: blocks.map(renderBlock) } satisfies BlocksList);
    }),
  ];
}
