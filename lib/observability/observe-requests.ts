import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import { countBodyBytes } from './count-bytes.js';
import type { Logger } from './logger.js';
import type { AppMetrics } from './metrics.js';
import { routeOf } from './route-pattern.js';

/** A client's X-Request-Id is kept when it is a plain token (visible ASCII, no spaces, ≤ 128). */
const ACCEPTED_ID = /^[\x21-\x7e]{1,128}$/;

/** What the request line says and the duration histogram records. */
export interface RequestSummary {
  method: string;
  route: string;
  bucket: string | null;
  status: number;
  duration_ms: number;
  bytes: number;
}

interface Exchange {
  started: bigint;
  bytes: () => number;
  summary: RequestSummary | null;
}

/** The client's request id when usable, else a new one; echoed on the response either way. */
function requestId(req: Request, res: Response): string {
  const given = req.get('x-request-id');
  const id = given !== undefined && ACCEPTED_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * One JSON line per request (pino-http) and its observation in the duration histogram. The line
 * carries the request id, method, route pattern, Bucket slug, status, duration and body bytes,
 * and deliberately nothing else: no URL, query string, header or body, which is where keys and
 * tokens travel. Mounted first, so every answer (errors, 404s) is logged, timed and carries its id.
 */
export function observeRequests(logger: Logger, metrics: AppMetrics): RequestHandler {
  const exchanges = new WeakMap<Response, Exchange>();
  // Both the log line and the histogram read one summary, made once when the response is over.
  const summarize = (req: Request, res: Response): RequestSummary => {
    const x = exchanges.get(res) ?? { started: process.hrtime.bigint(), bytes: () => 0, summary: null };
    if (x.summary) return x.summary;
    const { pattern, bucket } = routeOf(req);
    x.summary = {
      method: req.method,
      route: pattern,
      bucket,
      status: res.statusCode,
      duration_ms: Math.round(Number(process.hrtime.bigint() - x.started) / 1e4) / 100,
      bytes: x.bytes(),
    };
    return x.summary;
  };
  const httpLogger = pinoHttp<Request, Response>({
    logger,
    genReqId: requestId,
    // The request id is the only binding of a request's logger: no serialized req/res objects.
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'req_id' },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessObject: (req, res) => summarize(req, res),
    customErrorObject: (req, res, err) => ({ ...summarize(req, res), ...(res.err ? { err } : {}) }),
    customSuccessMessage: (_req, res) => (res.writableEnded ? 'request completed' : 'request aborted'),
    customErrorMessage: () => 'request failed',
  });
  return (req, res, next) => {
    exchanges.set(res, { started: process.hrtime.bigint(), bytes: countBodyBytes(res), summary: null });
    // Registered before pino-http's listeners, so the histogram has the request before its line is written.
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      const s = summarize(req, res);
      metrics.observeRequest({ method: s.method, route: s.route, status: s.status, seconds: s.duration_ms / 1000 });
    };
    res.on('finish', done);
    res.on('close', done);
    httpLogger(req, res, next);
  };
}
