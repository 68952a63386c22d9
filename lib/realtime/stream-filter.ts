import { BadRequestError } from '../errors/http-errors.js';
import { quote } from '../util/quote.js';
import { isEventType, type EventType } from '../store/event-types.js';
import type { FeedDoc } from '../events/feed-collection.js';
import { feedIdTime } from '../events/feed-collection.js';

/** Which of a Bucket's events one stream gets, and from where it resumes. */
export interface StreamRequest {
  /** Object type slugs: only object.* and object_type.* events of these types. null: every event. */
  types: ReadonlySet<string> | null;
  events: ReadonlySet<EventType> | null;
  /** The id to resume after, or null for live events only. */
  lastEventId: string | null;
}

function list(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * Reads the stream's query and `Last-Event-ID`; every problem in one 400. The header wins over
 * `last_event_id` (a browser's EventSource sends it on reconnect, to the URL it was given).
 */
export function readStreamRequest(
  raw: { types: string | undefined; events: string | undefined; last_event_id: string | undefined },
  header: string | undefined,
): StreamRequest {
  const problems: string[] = [];
  const types = list(raw.types);
  if (types?.length === 0) problems.push('types must name at least one Object type slug');
  const events = list(raw.events);
  if (events?.length === 0) problems.push('events must name at least one event');
  const unknown = (events ?? []).filter((e) => !isEventType(e));
  if (unknown.length > 0) problems.push(`events names no event ${unknown.map(quote).join(', ')}`);
  const lastEventId = header ?? raw.last_event_id ?? null;
  if (lastEventId !== null && feedIdTime(lastEventId) === null) {
    problems.push(`Last-Event-ID must be an id this stream sent, got ${quote(lastEventId)}`);
  }
  if (problems.length > 0) throw new BadRequestError(problems.join('; '));
  return {
    types: types ? new Set(types) : null,
    events: events ? new Set(events.filter(isEventType)) : null,
    lastEventId,
  };
}

/** Whether `doc` passes the stream's filters (its Bucket is checked by the query or the caller). */
export function wanted(request: StreamRequest, doc: Pick<FeedDoc, 'type' | 'object_type'>): boolean {
  if (request.events && !request.events.has(doc.type)) return false;
  if (request.types && (doc.object_type === undefined || !request.types.has(doc.object_type))) return false;
  return true;
}
