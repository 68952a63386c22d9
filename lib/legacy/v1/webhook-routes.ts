import type { Db } from 'mongodb';
import type { Config } from '../../config.js';
import { sendJson } from '../../http/respond.js';
import { requireWrite } from '../../middleware/authenticate.js';
import { bucketOf } from '../../middleware/load-bucket.js';
import { writeBody } from '../../middleware/write-body.js';
import { NO_PARAMS } from '../../query/read-params.js';
import { createWebhook, deleteWebhook, listWebhooks } from '../../webhooks/manage.js';
import { renderWebhook } from '../../webhooks/render.js';
import { bodyOf } from './bodies.js';
import { v1Route, type V1Route } from './route.js';

/** The v3 webhooks under v1 addresses; v1 bodies carry the write key, which is not a webhook field. */
export function webhookRoutes(config: Config, db: Db): V1Route[] {
  const body = writeBody(config.jsonBodyLimit);
  const noStore = 'no-store';
  return [
    v1Route('get', '/:slug/webhooks', NO_PARAMS, requireWrite, async (_req, res) => {
      const all = await listWebhooks(db, bucketOf(res));
      res.set('Cache-Control', noStore);
      sendJson(res, 200, { webhooks: all.map((w) => renderWebhook(w)), total: all.length });
    }),
    v1Route('post', '/:slug/webhooks', NO_PARAMS, body, requireWrite, async (req, res) => {
      const { write_key: _w, read_key: _r, ...input } = bodyOf(req.body);
      const created = await createWebhook(db, bucketOf(res), input);
      res.set('Cache-Control', noStore);
      sendJson(res, 200, { webhook: renderWebhook(created, true) });
    }),
    v1Route('delete', '/:slug/webhooks/:webhook_id', NO_PARAMS, body, requireWrite, async (req, res) => {
      const id = String(req.params.webhook_id);
      await deleteWebhook(db, bucketOf(res), id);
      sendJson(res, 200, { message: `Webhook with id '${id}' deleted successfully from bucket.` });
    }),
  ];
}
