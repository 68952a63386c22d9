/**
 * Every event a webhook can subscribe to, with the resource its `data` renders. The request
 * schemas (schemas/WebhookCreate.json, WebhookPatch.json) list the same names; a unit test keeps
 * them in step, and the OpenAPI `webhooks` section describes each.
 */
export const EVENTS = {
  'object.created': 'object',
  'object.edited': 'object',
  'object.published': 'object',
  'object.unpublished': 'object',
  'object.deleted': 'object',
  'object_type.created': 'object_type',
  'object_type.edited': 'object_type',
  'object_type.deleted': 'object_type',
  'media.created': 'media',
  'media.edited': 'media',
  'media.deleted': 'media',
} as const satisfies Record<string, Resource>;

export type Resource = 'object' | 'object_type' | 'media';
export type EventType = keyof typeof EVENTS;

/** What `POST .../webhooks/{id}/test` sends; not subscribable, so never in `events`. */
export const PING = 'ping';
export type DeliveryType = EventType | typeof PING;

export const EVENT_TYPES = Object.keys(EVENTS) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENTS, value);
}

/**
 * The fields a webhook with `payload: false` receives: enough to fetch the resource and to route
 * the event, nothing of its content.
 */
export const ID_FIELDS: { readonly [R in Resource]: readonly string[] } = {
  object: ['id', 'slug', 'type'],
  object_type: ['id', 'slug'],
  media: ['id', 'name'],
};
