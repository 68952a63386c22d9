import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { HttpServerSettings } from '../config.js';
import { BadRequestError } from '../errors/http-errors.js';
import { clientErrorAnswer, idleTimeout, MAX_HEADER_BYTES } from './client-error.js';
import { ConnectionLimits } from './connection-limits.js';
import { answerAndClose, answerRequest } from './socket-answer.js';

/** Connections refused on arrival beyond the limit; past these even a refusal is not written. */
const REFUSAL_HEADROOM = 256;

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
}

/** Node looks for overdue requests on a timer; it must tick well within the shortest limit. */
function checkingInterval(settings: HttpServerSettings): number {
  const limits = [settings.headersTimeoutMs, settings.requestTimeoutMs].filter((ms) => ms > 0);
  return limits.length === 0 ? 1000 : Math.min(1000, Math.max(10, Math.floor(Math.min(...limits) / 4)));
}

/**
 * The HTTP server in front of the app, bounded so that clients cannot hold it: requests must
 * arrive in time, connections that stall are cut, and each client (and the process) has a
 * connection limit. Every refusal it can still answer carries the `{status, code, message}` body.
 */
export function createHttpServer(app: RequestListener, settings: HttpServerSettings): http.Server {
  const exchanges = new WeakMap<Duplex, Exchange>();
  const server = http.createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkingInterval(settings),
      // Node's own answer to a missing Host has no body.
      requireHostHeader: false,
    },
    (req, res) => {
      // A connection refused on arrival was answered already; what it sends anyway is ignored.
      if (req.socket.writableEnded) return;
      if (req.httpVersion === '1.1' && req.headers.host === undefined) {
        answerRequest(res, new BadRequestError('An HTTP/1.1 request must have a Host header'));
        return;
      }
      exchanges.set(req.socket, { req, res });
      res.once('close', () => {
        if (exchanges.get(req.socket)?.res === res) exchanges.delete(req.socket);
      });
      app(req, res);
    },
  );
  server.timeout = settings.idleTimeoutMs;
  server.maxHeadersCount = settings.maxHeadersCount;
  if (settings.maxConnections > 0) server.maxConnections = settings.maxConnections + REFUSAL_HEADROOM;

  const limits = new ConnectionLimits(settings);
  server.on('connection', (socket: Socket) => {
    const admission = limits.admit(socket.remoteAddress);
    if (admission.refusal) answerAndClose(socket, admission.refusal);
    else socket.once('close', admission.release);
  });

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // Answered already (the parser reports each later chunk again); the linger timer closes it.
    if (socket.writableEnded && !socket.destroyed) return;
    const answer = exchanges.get(socket)?.res.headersSent === true ? null : clientErrorAnswer(err, settings);
    if (answer && socket.writable) answerAndClose(socket, answer);
    else socket.destroy();
  });

  // With a listener here Node no longer cuts idle connections itself: each case is decided below.
  server.on('timeout', (socket: Duplex) => {
    const exchange = exchanges.get(socket);
    if (exchange === undefined || exchange.res.headersSent) {
      socket.destroy();
    } else if (!exchange.req.complete) {
      answerAndClose(socket, idleTimeout(settings));
    }
    // Otherwise the request has arrived and the app is still working on it, within its own limits.
  });
  return server;
}
