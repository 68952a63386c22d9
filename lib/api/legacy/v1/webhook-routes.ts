import type { Db } from 'mongodb';
import type { Config } from '../../../config.js';
import { BadRequestError } from '../../../errors/http-errors.js';
import { sendJson } from '../../../http/respond.js';
import { bucketOf } from '../../../http/request.js';
import { writeBody } from '../../../middleware/write-body.js';
import { NO_PARAMS } from '../../../query/read-params.js';
import { quote } from '../../../util/quote.js';
import { createWebhook, deleteWebhook, listWebhooks } from '../../../webhooks/manage.js';
import { renderWebhook } from '../../../webhooks/render.js';
import { bodyOf } from './bodies.js';
import { v1Route, type V1Route } from './route.js';
import { writeAccess } from '../../../routes/access.js';

/**
 * v1 events → the v3 events that cover them. v3 events do not carry the Object's status, so a
 * `.draft` or `.published` webhook also hears the other status; publishing an edit is its own v3 event.
 */
export const V1_EVENTS: Readonly<Record<string, readonly string[]>> = {
  'object.created.draft': ['object.created'],
  'object.created.published': ['object.created'],
  'object.edited.draft': ['object.edited'],
  'object.edited.published': ['object.edited', 'object.published'],
  'object.deleted': ['object.deleted'],
  'media.created': ['media.created'],
  'media.deleted': ['media.deleted'],
};

/**
 * A v1 Add Webhook body (`event`, `endpoint`, the write key) as the v3 body. A body in the v3
 * form (`events`) passes through, so the v3 schema judges both.
 */
export function v3WebhookBody(raw: unknown): Record<string, unknown> {
  const { write_key: _w, read_key: _r, event, ...rest } = bodyOf(raw);
  if (event === undefined) return rest;
  if (rest.events !== undefined) throw new BadRequestError('Send event (v1) or events (v3), not both', 'invalid_body');
  const events = typeof event === 'string' ? V1_EVENTS[event] : undefined;
  if (events === undefined) {
    const given = typeof event === 'string' ? quote(event) : typeof event;
    throw new BadRequestError(
      `event must be one of ${Object.keys(V1_EVENTS).join(', ')}, got ${given}`,
      'invalid_body',
    );
  }
  return { ...rest, events: [...events] };
}

/** The v3 webhooks under v1 addresses; v1 bodies carry the write key, which is not a webhook field. */
export function webhookRoutes(config: Config, db: Db): V1Route[] {
  const body = writeBody(config.jsonBodyLimit);
  const noStore = 'no-store';
  return [
    v1Route('get', '/:slug/webhooks', NO_PARAMS, writeAccess('webhooks'), async (_req, res) => {
      const all = await listWebhooks(db, bucketOf(res));
      res.set('Cache-Control', noStore);
      sendJson(res, 200, { webhooks: all.map((w) => renderWebhook(w)), total: all.length });
    }),
    v1Route('post', '/:slug/webhooks', NO_PARAMS, writeAccess('webhooks'), body, async (req, res) => {
      const created = await createWebhook(db, bucketOf(res), v3WebhookBody(req.body));
      res.set('Cache-Control', noStore);
      sendJson(res, 200, { webhook: renderWebhook(created, true) });
    }),
    v1Route('delete', '/:slug/webhooks/:webhook_id', NO_PARAMS, writeAccess('webhooks'), body, async (req, res) => {
      const id = String(req.params.webhook_id);
      await deleteWebhook(db, bucketOf(res), id);
      sendJson(res, 200, { message: `Webhook with id '${id}' deleted successfully from bucket.` });
    }),
  ];
}
