import type { Db } from 'mongodb';
import type { ReadCache } from '../cache/read-cache.js';
import type { Config } from '../config.js';
import { createMediaRuntime, type MediaRuntime } from '../media/media-runtime.js';
import { batchAndPreviewRoutes } from './batch-and-preview.js';
import { blocksRoutes } from './blocks.js';
import { mediaRoutes } from './media.js';
import { metaRoutes } from './meta.js';
import { objectTypeRoutes } from './object-types.js';
import { objectRoutes } from './objects.js';
import { revisionRoutes } from './revisions.js';
import type { RouteDef } from './route-table.js';

export interface RouteDeps {
  config: Config;
  db: Db;
  /** Shared by every read route of this process; see lib/cache/read-cache.ts. */
  cache: ReadCache;
  /** Where server-side failures are reported (never to clients). */
  log: (msg: string) => void;
  /** The app's media state, shared with the routes outside /v3; made here when not given. */
  media?: MediaRuntime;
}

/** All v3 routes, in matching order (specific paths before parameterised siblings). */
export function v3Routes({ config, db, cache, log, media }: RouteDeps): RouteDef[] {
  return [
    ...metaRoutes(config),
    ...blocksRoutes(),
    ...objectTypeRoutes(config, db),
    ...batchAndPreviewRoutes(config, db, log),
    ...objectRoutes(config, db, cache),
    ...revisionRoutes(config, db, cache),
    ...mediaRoutes(config, db, cache, media ?? createMediaRuntime(config, db, log)),
  ];
}
