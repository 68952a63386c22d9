import { v1Route, type V1Route } from '../legacy/v1/route.js';
import { NO_PARAMS } from '../../query/read-params.js';
import type { RouteDeps } from '../deps.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { extensionRoutes } from './routes.js';

/* The Extensions routes under each API version that has them: the same handlers, two prefixes. */

export function v1ExtensionRoutes({ config, db, outboundCa }: RouteDeps): V1Route[] {
  return extensionRoutes({ config, db, outboundCa }, (slug) => `/v1/${slug}/extensions`).map((r) =>
    v1Route(r.method, `/:slug/extensions${r.sub}`, NO_PARAMS, r.access, ...r.handlers),
  );
}

export function v2ExtensionRoutes({ config, db, outboundCa }: RouteDeps): RouteDef[] {
  return extensionRoutes({ config, db, outboundCa }, (slug) => `/v2/buckets/${slug}/extensions`).map((r) =>
    route(r.method, `/buckets/:slug/extensions${r.sub}`, NO_PARAMS, r.access, ...r.handlers),
  );
}
