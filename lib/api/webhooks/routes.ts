import type { Request, RequestHandler, Response } from 'express';
import type { Db } from 'mongodb';
import type { Config } from '../../config.js';
import { sendJson } from '../../http/respond.js';
import { bucketOf } from '../../http/request.js';
import { readParams } from '../../http/request.js';
import { writeBody } from '../../middleware/write-body.js';
import { NO_PARAMS, paramSet } from '../../query/read-params.js';
import { getDelivery, listDeliveries, queuePing, redeliver } from '../../webhooks/deliveries.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateSecret,
  updateWebhook,
} from '../../webhooks/manage.js';
import { renderDelivery, renderWebhook } from '../../webhooks/render.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { writeAccess } from '../../routes/access.js';

const DELIVERY_LIST = paramSet(['delivery_status', 'limit', 'after']);

/** Answers carry secrets, signing settings and endpoint credentials: no cache may keep them. */
const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

/** Webhook management and the delivery log; every route takes the write key. */
export function webhookRoutes(config: Config, db: Db): RouteDef[] {
  const body = writeBody(config.jsonBodyLimit);
  const base = '/buckets/:slug/webhooks';
  const one = `${base}/:webhook_id`;
  const deliveries = `${one}/deliveries`;
  const delivery = `${deliveries}/:delivery_id`;
  const webhookOf = (req: Request, res: Response) => getWebhook(db, bucketOf(res), String(req.params.webhook_id));
  return [
    route('get', base, NO_PARAMS, writeAccess('webhooks'), noStore, async (_req, res) => {
      const all = await listWebhooks(db, bucketOf(res));
      sendJson(res, 200, { webhooks: all.map((w) => renderWebhook(w)), total: all.length });
    }),
    route('post', base, NO_PARAMS, writeAccess('webhooks'), body, noStore, async (req, res) => {
      const created = await createWebhook(db, bucketOf(res), req.body, config.planDefaults);
      sendJson(res, 200, { webhook: renderWebhook(created, true) });
    }),
    route('get', one, NO_PARAMS, writeAccess('webhooks'), noStore, async (req, res) => {
      sendJson(res, 200, { webhook: renderWebhook(await webhookOf(req, res)) });
    }),
    route('patch', one, NO_PARAMS, writeAccess('webhooks'), body, noStore, async (req, res) => {
      const updated = await updateWebhook(db, bucketOf(res), String(req.params.webhook_id), req.body);
      sendJson(res, 200, { webhook: renderWebhook(updated) });
    }),
    route('delete', one, NO_PARAMS, writeAccess('webhooks'), noStore, async (req, res) => {
      const id = String(req.params.webhook_id);
      await deleteWebhook(db, bucketOf(res), id);
      sendJson(res, 200, { message: `Webhook with id '${id}' deleted successfully from bucket.` });
    }),
    route('post', `${one}/rotate-secret`, NO_PARAMS, writeAccess('webhooks'), noStore, async (req, res) => {
      const rotated = await rotateSecret(db, bucketOf(res), String(req.params.webhook_id));
      sendJson(res, 200, { webhook: renderWebhook(rotated, true) });
    }),
    route('post', `${one}/test`, NO_PARAMS, writeAccess('webhooks'), noStore, async (req, res) => {
      const ping = await queuePing(db, bucketOf(res), await webhookOf(req, res));
      sendJson(res, 200, { delivery: renderDelivery(ping, false) });
    }),
    route('get', deliveries, DELIVERY_LIST, writeAccess('webhooks'), noStore, async (req, res) => {
      const params = readParams(res, DELIVERY_LIST);
      const page = { status: params.delivery_status, limit: params.limit, after: params.after };
      const { docs, total } = await listDeliveries(db, await webhookOf(req, res), page);
      sendJson(res, 200, { deliveries: docs.map((d) => renderDelivery(d, false)), total });
    }),
    route('get', delivery, NO_PARAMS, writeAccess('webhooks'), noStore, async (req, res) => {
      const bucket = bucketOf(res);
      const found = await getDelivery(db, bucket, await webhookOf(req, res), String(req.params.delivery_id));
      sendJson(res, 200, { delivery: renderDelivery(found, true) });
    }),
    route('post', `${delivery}/redeliver`, NO_PARAMS, writeAccess('webhooks'), noStore, async (req, res) => {
      const bucket = bucketOf(res);
      const queued = await redeliver(db, bucket, await webhookOf(req, res), String(req.params.delivery_id));
      sendJson(res, 200, { delivery: renderDelivery(queued, false) });
    }),
  ];
}
