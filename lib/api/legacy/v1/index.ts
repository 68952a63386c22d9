import type { RouteDeps } from '../../deps.js';
import { v1AccountRoutes } from '../../accounts/legacy-routes.js';
import { v1ExtensionRoutes } from '../../extensions/versioned-routes.js';
import { bucketRoutes } from './bucket-routes.js';
import { mediaRoutes } from './media-routes.js';
import { objectRoutes } from './objects-routes.js';
import type { V1Route } from './route.js';
import { webhookRoutes } from './webhook-routes.js';

/**
 * Every v1 route (paths relative to /v1), specific paths before `/:slug`: thin adapters over the
 * v3 services; unknown /v1 paths fall through to the 404.
 */
export function v1Routes(deps: RouteDeps): V1Route[] {
  const { config, db, state } = deps;
  const all = [
    ...v1AccountRoutes(deps),
    ...v1ExtensionRoutes(deps),
    ...objectRoutes(config, db, state),
    ...webhookRoutes(config, db),
    ...mediaRoutes(config, state),
    ...bucketRoutes(config, db, state),
  ];
  return [...all.filter((r) => r.path !== '/:slug'), ...all.filter((r) => r.path === '/:slug')];
}
