import cors, { type CorsOptions } from 'cors';
import type { RequestHandler } from 'express';

const READ_METHODS = ['GET', 'HEAD'];
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Request headers a page may send: keys and JSON or upload bodies (what the official SDK sends),
 * the request id, a write's Idempotency-Key, and the conditional and range headers of file downloads.
 */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Request-Id',
  'Idempotency-Key',
  'Range',
  'If-Range',
  'If-None-Match',
  'If-Match',
  'If-Modified-Since',
];

/** Response headers scripts may read beyond the safelisted ones. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-Cache',
  'X-Imgproc-Cache',
  'ETag',
  'Accept-Ranges',
  'Content-Range',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Idempotent-Replayed',
];

/** Browsers cap how long they keep a preflight answer (Chromium: 2 hours). */
const PREFLIGHT_MAX_AGE_S = 7200;

/**
 * Cross-origin access as a public content API grants it: reads (GET, HEAD) from any origin, with
 * `Access-Control-Allow-Origin: *` on every read whether or not it names an origin, so a cached
 * answer suits every page; writes only from `origins` (CORS_ORIGINS; '*' is every origin), whose
 * origin is echoed. A write preflight from any other origin is answered without an allowed
 * origin, so the browser never sends the write. No credentials mode: keys travel in the
 * Authorization header or the query, never in cookies. This is what browsers enforce; the keys
 * remain what authorizes a request.
 */
export function corsPolicy(origins: string[] | '*'): RequestHandler {
  const common: CorsOptions = {
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_S,
    optionsSuccessStatus: 204,
  };
  const reads = cors({ ...common, origin: '*', methods: READ_METHODS });
  const writes = cors({
    ...common,
    origin: origins === '*' ? true : origins,
    methods: [...READ_METHODS, ...WRITE_METHODS],
  });
  return (req, res, next) => {
    const requested = req.method === 'OPTIONS' ? req.get('access-control-request-method') : req.method;
    // An OPTIONS that is not a preflight is an ordinary request.
    if (requested === undefined) {
      next();
      return;
    }
    const handler = READ_METHODS.includes(requested.toUpperCase()) ? reads : writes;
    handler(req, res, next);
  };
}
