import type { Request, Response } from 'express';
import type { Db, ObjectId } from 'mongodb';
import { readOptions } from '../db/service-db.js';
import { feedCollection, type FeedDoc } from '../events/feed-collection.js';
import { feedIdTime, horizonId } from '../events/feed-collection.js';
import type { FeedTailer } from './feed-tailer.js';
import { KEEP_ALIVE, openEventStream, sseMessage, sseNotice, sseRetry } from './sse.js';
import { wanted, type StreamRequest } from './stream-filter.js';

export interface StreamOptions {
  db: Db;
  tailer: FeedTailer;
  bucketId: ObjectId;
  request: StreamRequest;
  /** A write-key (or member's) stream gets every event whole; a read-key stream its read view. */
  full: boolean;
  retentionMs: number;
  heartbeatMs: number;
  /** The reconnection delay the client is told. */
  retryMs: number;
  /** Called once per message sent, for the metrics. */
  sent?: () => void;
  now?: () => number;
}

/**
 * Serves one stream until the client goes: the missed events after its Last-Event-ID (or one
 * `reset` when that id is past retention), then the live ones the tailer hears. Live events are
 * held while the backlog is read, and every message's id must exceed the last one sent, so the
 * two never overlap and nothing is sent twice.
 */
export async function serveStream(req: Request, res: Response, o: StreamOptions): Promise<void> {
  const now = o.now ?? Date.now;
  let last: string | null = null;
  let held: FeedDoc[] | null = [];
  const send = (doc: FeedDoc) => {
    if (last !== null && doc._id <= last) return;
    last = doc._id;
    if (!doc.bucket_id.equals(o.bucketId) || !wanted(o.request, doc)) return;
    const body = o.full ? doc.body : doc.read_body;
    if (body === null) return;
    res.write(sseMessage(doc._id, doc.type, body));
    o.sent?.();
  };
  const listener = (docs: readonly FeedDoc[]) => {
    if (held) held.push(...docs);
    else for (const doc of docs) send(doc);
  };
  const upTo = o.tailer.subscribe(listener);
  const heartbeat = setInterval(() => res.write(KEEP_ALIVE), o.heartbeatMs);
  const closed = new Promise<void>((resolve) => req.once('close', resolve));
  try {
    openEventStream(res);
    // The first bytes: a client (and any proxy) knows at once the stream is open, and when to come back.
    res.write(sseRetry(o.retryMs));
    const from = o.request.lastEventId;
    const stamped = from === null ? null : feedIdTime(from);
    // Without a position to resume from, a stream begins now: not with the settle window's past.
    const live = horizonId(now());
    if (from === null || stamped === null) {
      last = live;
    } else if (stamped < now() - o.retentionMs) {
      // Events after it may be gone: the client must reload what it shows, then follow live.
      res.write(sseNotice('reset', JSON.stringify({ reason: 'Last-Event-ID is older than the retention' })));
      last = live;
    } else {
      last = from;
      const backlog = feedCollection(o.db)
        .find({ bucket_id: o.bucketId, _id: { $gt: from, $lte: upTo } }, readOptions(o.db))
        .sort({ _id: 1 });
      for await (const doc of backlog) send(doc);
      // Later ones come from the tailer, which reads past upTo.
      if (last < upTo) last = upTo;
    }
    const pending = held;
    held = null;
    for (const doc of pending) send(doc);
    await closed;
  } finally {
    clearInterval(heartbeat);
    o.tailer.unsubscribe(listener);
  }
}
