import { v2AccountRoutes } from '../../accounts/legacy-routes.js';
import { v2ExtensionRoutes } from '../../extensions/versioned-routes.js';
import { DELETE_PARAMS } from '../../../query/read-params.js';
import type { RouteDeps } from '../../deps.js';
import { mediaListHandler, MEDIA_LIST } from '../../media/routes.js';
import { typeDeleteHandler } from '../../object-types/routes.js';
import { route, type RouteDef } from '../../../routes/route-table.js';
import { v2ObjectBody } from './bodies.js';
import { V2_BODIES, V2_MIRRORED_PATHS, V2_OWN_OPERATIONS } from '../../../openapi/legacy-v2-operations.js';
import { mergeRequestObjectsV2 } from './merge-request-objects.js';
import { metafieldRoutes } from './metafields.js';
import { v2ObjectReadRoutes } from './objects.js';
import { readAccess, writeAccess } from '../../../routes/access.js';

function ownRoutes(deps: RouteDeps): RouteDef[] {
  const { config, db, state } = deps;
  return [
    ...v2AccountRoutes(deps),
    ...v2ExtensionRoutes(deps),
    ...v2ObjectReadRoutes(config, db, state),
    route(
      'get',
      '/buckets/:slug/media',
      MEDIA_LIST,
      readAccess('media'),
      mediaListHandler(config, state, 'legacy-media'),
    ),
    // v2 promised that deleting a type keeps its Objects; this service cannot keep them, so it
    // refuses a type that has any rather than delete what the client meant to keep (docs/legacy.md).
    route(
      'delete',
      '/buckets/:slug/object-types/:type_slug',
      DELETE_PARAMS,
      writeAccess('object_types'),
      typeDeleteHandler(state.writes, 'refuse'),
    ),
    ...metafieldRoutes(config, db, state),
    mergeRequestObjectsV2(config, db, state),
  ];
}

const key = (r: RouteDef): string => `${r.method} ${r.path}`;

/** A v3 route taking the v2 body: route() puts the route's own handler last, after body parsing and the key check. */
function withV2Body(def: RouteDef): RouteDef {
  return { ...def, handlers: [...def.handlers.slice(0, -1), v2ObjectBody, ...def.handlers.slice(-1)] };
}

/** Every v2 route, paths relative to /v2: v2's own routes, then the mirrored ones of `v3` (the v3 table). */
export function v2Routes(deps: RouteDeps, v3: readonly RouteDef[]): RouteDef[] {
  const own = ownRoutes(deps);
  const replaced = own.filter((r) => V2_MIRRORED_PATHS.has(r.path)).map(key);
  // The OpenAPI document relies on this list to describe each of these operations as v2's own.
  const described = [...replaced, ...V2_BODIES].sort().join();
  if (described !== [...V2_OWN_OPERATIONS].sort().join()) {
    throw new Error(`v2 routes: V2_OWN_OPERATIONS must list exactly ${described}`);
  }
  const mirrored = v3
    .filter((r) => V2_MIRRORED_PATHS.has(r.path) && !replaced.includes(key(r)))
    .map((r) => (V2_BODIES.has(key(r)) ? withV2Body(r) : r));
  return [...own, ...mirrored];
}
