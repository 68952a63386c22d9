import { parseProps, pickProps } from '../query/props.js';
import type { WebhookDoc } from '../store/webhooks.js';
import { EVENTS, ID_FIELDS, type DeliveryType, type EventType } from '../store/event-types.js';

/** A larger body is sent with ids only, as `payload: false` would, rather than stored and sent whole. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** An event as every webhook's delivery describes it. */
export interface EventEnvelope {
  id: string;
  type: DeliveryType;
  created_at: Date;
  bucket_slug: string;
}

function idsOnly(type: EventType, data: Record<string, unknown>): Record<string, unknown> {
  return pickProps(data, ID_FIELDS[EVENTS[type]]);
}

/** `data` as one webhook receives it: ids only without payload, its props of an Object otherwise. */
export function shapeData(
  type: EventType,
  data: Record<string, unknown>,
  webhook: Pick<WebhookDoc, 'payload' | 'props'>,
): Record<string, unknown> {
  if (!webhook.payload) return idsOnly(type, data);
  if (EVENTS[type] !== 'object' || webhook.props === null) return data;
  // Stored props were checked on save; a list that no longer parses falls back to the whole Object.
  return pickProps(
    data,
    parseProps(webhook.props, () => undefined),
  );
}

/** The request body: `{id, type, created_at, bucket: {slug}, data}`. */
export function renderBody(event: EventEnvelope, data: Record<string, unknown>): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    bucket: { slug: event.bucket_slug },
    data,
  });
}

/** The body one webhook is sent for an event, held under MAX_BODY_BYTES. */
export function eventBody(
  event: EventEnvelope & { type: EventType },
  data: Record<string, unknown>,
  webhook: Pick<WebhookDoc, 'payload' | 'props'>,
): string {
  const body = renderBody(event, shapeData(event.type, data, webhook));
  if (Buffer.byteLength(body) <= MAX_BODY_BYTES) return body;
  return renderBody(event, idsOnly(event.type, data));
}
