import type { Request, RequestHandler, Response } from 'express';
import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { viaMember } from '../accounts/request-account.js';
import { keyMatches } from '../http/request.js';
import { UnauthorizedError } from '../errors/http-errors.js';
import { bearerKey } from '../http/request.js';
import { paramOf, readParams } from '../http/request.js';
import { sendJson } from '../http/respond.js';
import { bucketOf } from '../http/request.js';
import { requireRead } from '../middleware/authenticate.js';
import { NO_PARAMS, paramSet } from '../query/read-params.js';
import { accountOnly, readAccess, writeAccess } from '../routes/access.js';
import { route, type RouteDef } from '../routes/route-table.js';
import { serveStream } from './feed-stream.js';
import { FeedTailer } from './feed-tailer.js';
import { readStreamRequest } from './stream-filter.js';
import { issueTicket, takeTicket } from './tickets.js';
import type { StreamCaps } from '../limits/stream-caps.js';

const STREAM = paramSet(['read_key', 'ticket', 'types', 'events', 'last_event_id']);

interface StreamLocals {
  ticketAdmitted?: boolean;
}

/**
 * The stream's credential: a ticket (taken, so it opens this stream only), else what every read
 * route takes. It stands in for the key check, as an account-only route's own check does.
 */
function streamCredential(db: Db): RequestHandler {
  return async (req, res, next) => {
    const ticket = paramOf(res, 'ticket');
    if (ticket === undefined) {
      requireRead(req, res, next);
      return;
    }
    const bucket = bucketOf(res);
    if (!(await takeTicket(db, bucket._id, ticket))) {
      throw new UnauthorizedError(
        `The ticket is not valid for the bucket '${bucket.slug}': it expired, was used, or was never issued`,
      );
    }
    (res.locals as StreamLocals).ticketAdmitted = true;
    next();
  };
}

/**
 * Whether the stream may carry drafts: a ticket (issued to the write key or a member), the write
 * key (as a header, or given as the read key) or a member's account token. The read key gets its
 * read view (lib/events/feed-collection.ts).
 */
function seesDrafts(req: Request, res: Response, readKey: string | undefined): boolean {
  const { write_key_hash: writeKey } = bucketOf(res);
  if (writeKey === null || viaMember(res) || (res.locals as StreamLocals).ticketAdmitted === true) return true;
  return keyMatches(bearerKey(req), writeKey) || keyMatches(readKey, writeKey);
}

/** The change feed (docs/realtime.md): one tailer per app, shared by all its streams. */
export function realtimeRoutes(config: Config, db: Db, streams: StreamCaps, log: (msg: string) => void): RouteDef[] {
  const settings = config.realtime;
  const tailer = new FeedTailer(db, settings, log);
  const base = '/buckets/:slug/events';
  return [
    route('post', `${base}/tickets`, NO_PARAMS, writeAccess('objects'), async (_req, res) => {
      const issued = await issueTicket(db, bucketOf(res)._id, settings.ticketTtlMs);
      res.set('Cache-Control', 'no-store');
      sendJson(res, 200, { ticket: issued.ticket, expires_at: issued.expires_at.toISOString() });
    }),
    route('get', base, STREAM, accountOnly(readAccess('objects'), streamCredential(db)), async (req, res) => {
      const params = readParams(res, STREAM);
      const request = readStreamRequest(params, req.get('Last-Event-ID'));
      const bucket = bucketOf(res);
      const release = streams.admit(bucket.slug, req.ip ?? req.socket.remoteAddress ?? '');
      try {
        await serveStream(req, res, {
          db,
          tailer,
          bucketId: bucket._id,
          request,
          full: seesDrafts(req, res, params.read_key),
          retentionMs: settings.retentionMs,
          heartbeatMs: settings.heartbeatMs,
          retryMs: settings.retryMs,
          sent: () => {
            streams.sent++;
          },
        });
      } catch (err) {
        // The answer has begun: the client reconnects and resumes from the last id it got.
        log(`change feed stream failed: ${err instanceof Error ? err.message : String(err)}`);
        res.end();
      } finally {
        release();
      }
    }),
  ];
}
