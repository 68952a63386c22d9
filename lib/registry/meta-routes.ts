import type { Config } from '../config.js';
import type { HealthView } from '../db/db-health.js';
import { databaseUnreachable } from '../errors/translate.js';
import { openApiDocument } from '../openapi/document.js';
import { sendJson } from '../http/respond.js';
import { NO_PARAMS } from '../query/read-params.js';
import { serviceVersion } from '../version.js';
import { route, type RouteDef } from '../routes/route-table.js';
import { PUBLIC } from '../routes/access.js';

/** Routes that need no Bucket and no credential. */
export function metaRoutes(config: Config, health: HealthView | undefined): RouteDef[] {
  // Built from files once per app, not per request.
  const openApi = openApiDocument(config.publicUrl);
  return [
    route('get', '/status', NO_PARAMS, PUBLIC, (_req, res) => {
      // A load balancer reads this route: while the database is away the service cannot serve.
      if (health && !health.isUp()) throw databaseUnreachable();
      sendJson(res, 200, { status: 'ok', region: config.region, version: serviceVersion, api_version: '3.0.0' });
    }),
    route('get', '/openapi.json', NO_PARAMS, PUBLIC, (_req, res) => {
      sendJson(res, 200, openApi);
    }),
  ];
}
