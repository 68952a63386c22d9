import express, { Router, type Express } from 'express';
import type { Db } from 'mongodb';
import type { Config } from './config.js';
import { errorHandler } from './http/error-handler.js';
import { parseQueryString } from './http/query-string.js';
import { plainNotFound, v3RouteNotFound } from './http/route-not-found.js';
import { loadBucket } from './middleware/load-bucket.js';
import { blocksRouter } from './routes/blocks.js';
import { metaRouter } from './routes/meta.js';

export interface AppDeps {
  config: Config;
  db: Db;
  log?: (msg: string) => void;
}

/** Builds the Express app without listening, so tests drive it through supertest. */
export function createApp({ config, db, log = (m) => console.error(m) }: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', parseQueryString);

  const bucketScoped = Router({ mergeParams: true });
  bucketScoped.use(loadBucket(db));
  bucketScoped.use(blocksRouter());

  const v3 = Router();
  v3.use(metaRouter(config));
  v3.use('/buckets/:slug', bucketScoped);
  v3.use(v3RouteNotFound(config));

  app.use('/v3', v3);
  app.use(plainNotFound);
  app.use(errorHandler(log));
  return app;
}
