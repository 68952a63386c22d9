import express, { type Express } from 'express';
import type { Db } from 'mongodb';
import { pino } from 'pino';
import { AppState } from './app-state.js';
import type { Config } from './config.js';
import type { HealthView } from './db/db-health.js';
import { corsPolicy } from './http/cors.js';
import { errorHandler } from './http/error-handler.js';
import { parseQueryString } from './http/request.js';
import { plainNotFound, v3RouteNotFound } from './http/route-not-found.js';
import { readParamsOnce } from './http/request.js';
import { requestGate } from './middleware/request-gate.js';
import { accountToken } from './middleware/authenticate.js';
import type { Logger } from './observability/logger.js';
import { AppMetrics } from './observability/metrics.js';
import { metricsEndpoint } from './observability/metrics-endpoint.js';
import { observeRequests } from './observability/observe-requests.js';
import { NO_PARAMS } from './query/read-params.js';
import { routeRegistry } from './registry/registry.js';
import { ROUTER_OPTIONS } from './routes/route-table.js';
import { mounting, mountRoutes } from './registry/mount.js';
import type { DomainEvents } from './events/domain-events.js';
import { serviceDb } from './db/service-db.js';
import { PutOffWork } from './http/respond.js';
import { studioRedirect, studioRouter } from './studio/serve.js';

export interface AppDeps {
  config: Config;
  db: Db;
  /** Where request lines and server-side failures go; bin/server.ts passes the process logger. Without one: no request lines, failures to stderr. */
  logger?: Logger;
  /** Overrides where server-side failures go (tests collect them); default: the logger's error level. */
  log?: (msg: string) => void;
  /** Makes /v3/status answer 503 while the database is unreachable. */
  health?: HealthView;
  /** The event seam, when the caller registers sinks or shares it with the scheduler and repair. */
  events?: DomainEvents;
  /** The app's metrics (one per app), when the caller also watches the database client or serves them on METRICS_PORT. */
  metrics?: AppMetrics;
  /** Certificates outbound checks (Extensions) trust besides the system's: only tests pass one, for their own https server. */
  outboundCa?: string | Buffer;
  /** Work requests put off until their answers were sent, when the caller waits for it (shutdown, tests). */
  putOff?: PutOffWork;
}

function logToStderr(msg: string): void {
  console.error(msg);
}

/** Builds the Express app without listening, so tests drive it through supertest. */
export function createApp({
  config,
  db: given,
  logger,
  log,
  health,
  events,
  metrics = new AppMetrics(),
  outboundCa,
  putOff: givenPutOff,
}: AppDeps): Express {
  // The app's own handle, carrying its query time limit and what it learns of the servers to every service it calls.
  const db = serviceDb(given, { queryTimeoutMs: config.queryTimeoutMs });
  const failures =
    log ??
    (logger
      ? (msg: string) => {
          logger.error(msg);
        }
      : logToStderr);
  const putOff = givenPutOff ?? new PutOffWork(failures);
  const app = express();
  app.disable('x-powered-by');
  // Paths match as written (see ROUTER_OPTIONS): `/V3/…` and `/v3/…/` are no route of ours.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.set('query parser', parseQueryString);

  const v3 = express.Router(ROUTER_OPTIONS);
  const state = new AppState(config, db, failures, events);
  const gate = requestGate(config, state);
  metrics.watchCache(state.reads);
  metrics.watchStreams(state.streams);
  metrics.watchQueues(db, health);
  // First, so every answer (refusals and 404s included) is logged, timed and carries its request id.
  app.use(observeRequests(logger ?? pino({ level: 'silent' }), metrics));
  app.use(corsPolicy(config.observability.corsOrigins));
  const { metricsPort, metricsToken } = config.observability;
  if (metricsPort === null) app.get('/metrics', metricsEndpoint(metrics, metricsToken));
  app.use(accountToken(state.accountTokens));
  const routes = routeRegistry({ config, db, state, log: failures, health, outboundCa });
  const mount = mounting(db, gate, putOff, config.bucketMemoryMs, state.versions);
  v3.use(mountRoutes(routes['/v3'], '/v3', mount));
  // Unknown paths still honour (and check) `pretty`, as every /v3 response does.
  v3.use(readParamsOnce(NO_PARAMS), v3RouteNotFound(config));
  app.use('/v3', v3);
  // Legacy v2 paths: the v3 handlers where the contract matches; an unknown one is a plain 404.
  app.use('/v2', mountRoutes(routes['/v2'], '/v2', mount));
  // Public file URLs and the legacy upload address live outside /v3, so its 200 quirk never applies.
  app.use(mountRoutes(routes[''], '', mount));
  app.use('/v1', mountRoutes(routes['/v1'], '/v1', mount));
  // Studio's pages (lib/studio/): not API routes, so outside the registry and the OpenAPI document.
  app.get('/studio', studioRedirect);
  app.use('/studio', studioRouter(config));
  app.use(plainNotFound);
  app.use(errorHandler(failures));
  return app;
}
