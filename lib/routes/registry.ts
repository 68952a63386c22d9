import { v1Routes } from '../legacy/v1/index.js';
import { v2Routes } from '../legacy/v2/routes.js';
import { v3Routes, type RouteDeps } from './index.js';
import { mediaFileRoutes } from '../media/file-routes.js';
import type { RouteDef } from './route-table.js';

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
  return {
    '/v3': v3Routes(deps),
    '/v2': v2Routes(deps),
    '/v1': v1Routes(deps),
    '': mediaFileRoutes(deps.db, deps.state.media),
  };
}
