import express, { type Express } from 'express';
import type { Db } from 'mongodb';
import { ReadCache } from './cache/read-cache.js';
import type { Config } from './config.js';
import { errorHandler } from './http/error-handler.js';
import { createMediaRuntime } from './media/media-runtime.js';
import { parseQueryString } from './http/query-string.js';
import { plainNotFound, v3RouteNotFound } from './http/route-not-found.js';
import { checkCommonParams } from './middleware/common-params.js';
import { v3Routes } from './routes/index.js';
import { legacyMediaRoutes } from './routes/media.js';
import { mediaFileRoutes } from './routes/media-files.js';
import { mountRoutes } from './routes/route-table.js';

export interface AppDeps {
  config: Config;
  db: Db;
  log?: (msg: string) => void;
}

function logToStderr(msg: string): void {
  console.error(msg);
}

/** Builds the Express app without listening, so tests drive it through supertest. */
export function createApp({ config, db, log = logToStderr }: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', parseQueryString);

  const v3 = express.Router();
  v3.use(checkCommonParams);
  const cache = new ReadCache(config.cacheMaxBytes);
  const media = createMediaRuntime(config, db, log);
  v3.use(mountRoutes(v3Routes({ config, db, cache, log, media }), db));
  v3.use(v3RouteNotFound(config));
  app.use('/v3', v3);
  // Public file URLs and the legacy upload address live outside /v3, so its 200 quirk never applies.
  app.use(mediaFileRoutes(db, media));
  app.use(legacyMediaRoutes(config, db, media));
  app.use(plainNotFound);
  app.use(errorHandler(log));
  return app;
}
