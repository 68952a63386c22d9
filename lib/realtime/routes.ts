import type { Request, Response } from 'express';
import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { viaMember } from '../accounts/request-account.js';
import { keyMatches } from '../buckets/keys.js';
import { bearerKey } from '../http/bearer-key.js';
import { readParams } from '../http/read-params.js';
import { bucketOf } from '../http/request-bucket.js';
import { paramSet } from '../query/read-params.js';
import { readAccess } from '../routes/access.js';
import { route, type RouteDef } from '../routes/route-table.js';
import { serveStream } from './feed-stream.js';
import { FeedTailer } from './feed-tailer.js';
import { readStreamRequest } from './stream-filter.js';

const STREAM = paramSet(['read_key', 'types', 'events', 'last_event_id']);

/**
 * Whether the stream may carry drafts: the write key (as a header, or given as the read key) or
 * a member's account token. The read key gets its read view (lib/events/feed-read-view.ts).
 */
function seesDrafts(req: Request, res: Response, readKey: string | undefined): boolean {
  const { write_key_hash: writeKey } = bucketOf(res);
  if (writeKey === null || viaMember(res)) return true;
  return keyMatches(bearerKey(req), writeKey) || keyMatches(readKey, writeKey);
}

/** The change feed (docs/realtime.md): one tailer per app, shared by all its streams. */
export function realtimeRoutes(config: Config, db: Db, log: (msg: string) => void): RouteDef[] {
  const settings = config.realtime;
  const tailer = new FeedTailer(db, settings, log);
  return [
    route('get', '/buckets/:slug/events', STREAM, readAccess('objects'), async (req, res) => {
      const params = readParams(res, STREAM);
      const request = readStreamRequest(params, req.get('Last-Event-ID'));
      const bucket = bucketOf(res);
      try {
        await serveStream(req, res, {
          db,
          tailer,
          bucketId: bucket._id,
          request,
          full: seesDrafts(req, res, params.read_key),
          retentionMs: settings.retentionMs,
          heartbeatMs: settings.heartbeatMs,
        });
      } catch (err) {
        // The answer has begun: the client reconnects and resumes from the last id it got.
        log(`change feed stream failed: ${err instanceof Error ? err.message : String(err)}`);
        res.end();
      }
    }),
  ];
}
