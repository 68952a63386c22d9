import { pickProps } from '../query/props.js';
import { EVENTS, ID_FIELDS, type EventType } from '../store/event-types.js';

/**
 * What a read-key stream gets of an event's resource, decided when the event is written: the
 * read key reads published Objects only, so an event about a draft (a new draft, a draft saved
 * over a live Object, a draft deleted) is not sent to it at all, and an unpublish (the Object
 * is a draft now) carries only its ids. Object types and media are the read key's to read.
 * null: not sent.
 */
export function readKeyData(type: EventType, data: Record<string, unknown>): Record<string, unknown> | null {
  if (EVENTS[type] !== 'object') return data;
  if (type === 'object.unpublished') return pickProps(data, ID_FIELDS.object);
  return data.status === 'published' ? data : null;
}
