import { v1Routes } from '../api/legacy/v1/index.js';
import { v2Routes } from '../api/legacy/v2/routes.js';
import { v3Routes } from './v3.js';
import type { RouteDeps } from '../api/deps.js';
import { mediaFileRoutes } from '../api/media/file-routes.js';
import type { RouteDef } from '../routes/route-table.js';

/** Every route the app serves, by the prefix it is mounted under. */
export interface RouteRegistry {
  '/v3': RouteDef[];
  '/v2': RouteDef[];
  '/v1': RouteDef[];
  /** The public file addresses, outside every version. */
  '': RouteDef[];
}

/** The one registry: the app mounts it, and tests walk it (access declarations, OpenAPI both ways). */
export function routeRegistry(deps: RouteDeps): RouteRegistry {
  const v3 = v3Routes(deps);
  return {
    '/v3': v3,
    '/v2': v2Routes(deps, v3),
    '/v1': v1Routes(deps),
    '': mediaFileRoutes(deps.db, deps.state.media),
  };
}
