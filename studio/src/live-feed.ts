import { useEffect, useRef } from 'preact/hooks';
import { api, v3 } from './api';
import type { BucketInfo } from './bucket';

/** An Object event of the Bucket's change feed: the Object as the API answers it. */
export interface FeedObject {
  id: string;
  type: string;
  version?: string;
  modified_at?: string;
  modified_by?: string | null;
}

const OBJECT_EVENTS = ['object.created', 'object.edited', 'object.published', 'object.unpublished', 'object.deleted'];
/** After a stream ends for good (its ticket was used by the browser's own reconnect), the wait before a new one. */
const REOPEN_MS = 2000;

/**
 * Follows the Bucket's Object events (docs/realtime.md) while the component is mounted: a
 * one-use ticket per stream, since an account token must not go in a URL; a stream that ends
 * is opened again with a new ticket, from the last id seen, so nothing is missed meanwhile.
 */
export function useObjectFeed(
  bucket: BucketInfo,
  types: string | null,
  onEvent: (event: string, o: FeedObject) => void,
) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  // A contributor gets no ticket: a ticket's stream carries every type, and its role is held to some.
  const follows = bucket.role !== 'contributor';
  const slug = bucket.slug;
  useEffect(() => {
    if (!follows) return undefined;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let lastId: string | null = null;
    const open = async () => {
      try {
        const { ticket } = await api<{ ticket: string }>('POST', v3(slug, 'events/tickets'));
        if (stopped) return;
        const query = new URLSearchParams({ ticket });
        if (types !== null) query.set('types', types);
        if (lastId !== null) query.set('last_event_id', lastId);
        source = new EventSource(`${v3(slug, 'events')}?${query.toString()}`);
        for (const name of OBJECT_EVENTS) {
          source.addEventListener(name, (e) => {
            lastId = e.lastEventId || lastId;
            handler.current(name, (JSON.parse(e.data as string) as { data: FeedObject }).data);
          });
        }
        source.onerror = () => {
          if (source?.readyState !== EventSource.CLOSED || stopped) return;
          timer = setTimeout(() => void open(), REOPEN_MS);
        };
      } catch {
        // No feed (the ticket refused): the page works as before, without live updates.
      }
    };
    void open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [slug, types, follows]);
}
