import { Router } from 'express';
import type { Config } from '../config.js';
import { openApiDocument } from '../openapi/document.js';
import { sendJson } from '../http/respond.js';
import { serviceVersion } from '../version.js';

/** Routes that need no Bucket and no credential. */
export function metaRouter(config: Config): Router {
  const router = Router();
  router.get('/status', (req, res) => {
    sendJson(req, res, 200, { status: 'ok', region: config.region, version: serviceVersion, api_version: '3.0.0' });
  });
  router.get('/openapi.json', (req, res) => {
    sendJson(req, res, 200, openApiDocument(config.publicUrl));
  });
  return router;
}
