import { AppState } from '../../lib/app-state.js';
import { routeRegistry } from '../../lib/registry/registry.js';
import type { RouteDef } from '../../lib/routes/route-table.js';
import type { Harness } from './harness.js';

/** Every route of every version with the prefix it is mounted under, as the app mounts them. */
export function everyRoute(h: Harness): { prefix: string; def: RouteDef }[] {
  const deps = { config: h.config, db: h.db, state: new AppState(h.config, h.db, () => {}), log: () => {} };
  const registry: Record<string, RouteDef[]> = { ...routeRegistry(deps) };
  return Object.entries(registry).flatMap(([prefix, defs]) => defs.map((def) => ({ prefix, def })));
}
