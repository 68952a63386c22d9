import type { AppState } from '../../app-state.js';
import type { Config } from '../../config.js';
import { sendJson } from '../../http/respond.js';
import { writeBody } from '../../middleware/write-body.js';
import { bucketOf } from '../../http/request.js';
import { NO_PARAMS, paramSet } from '../../query/read-params.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { readAccess, writeAccess } from '../../routes/access.js';
import { renderObjectType, type ApiObjectType } from '../../render/object-types.js';
import { renameMetafieldKey } from '../../object-types/metafield-key-rename.js';
import { metafieldUsage } from '../../object-types/metafield-usage.js';

/* Bodies of the answers (schemas/MetafieldKeyRenameResponse.json, MetafieldUsage.json). */
type KeyRenameResponse = { object_type: ApiObjectType; objects_changed: number };
type UsageResponse = { objects: number };

const READ = paramSet(['read_key']);

/**
 * Routes on one Metafield of an Object type. Usage is a read: the read key may already list the
 * type's Objects of every status with a `query` on the key, so the count tells it nothing new,
 * and a read-only member can see what removing a Metafield would cost before asking for it.
 */
export function metafieldKeyRoutes(config: Config, { writes }: AppState): RouteDef[] {
  const { db } = writes;
  const base = '/buckets/:slug/object-types/:type_slug/metafields/:key';
  return [
    route('get', `${base}/usage`, READ, readAccess('object_types'), async (req, res) => {
      const objects = await metafieldUsage(db, bucketOf(res), String(req.params.type_slug), String(req.params.key));
      sendJson(res, 200, { objects } satisfies UsageResponse);
    }),
    route(
      'post',
      `${base}/rename`,
      NO_PARAMS,
      writeAccess('object_types'),
      writeBody(config.jsonBodyLimit),
      async (req, res) => {
        const { type, objectsChanged } = await renameMetafieldKey(
          writes,
          bucketOf(res),
          String(req.params.type_slug),
          String(req.params.key),
          req.body,
        );
        sendJson(res, 200, {
          object_type: renderObjectType(type),
          objects_changed: objectsChanged,
        } satisfies KeyRenameResponse);
      },
    ),
  ];
}
