import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody, type HttpError } from '../errors/http-errors.js';

/** How long a refused connection may still deliver request bytes nobody reads before it is cut. */
const LINGER_MS = 2000;

function errorHeaders(err: HttpError, body: string): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...err.headers,
  };
}

/**
 * Answers on a bare connection, for refusals made outside any request Express sees (a connection
 * over its limit, a request Node's parser gave up on): the same `{status, code, message}` body the
 * error handler writes, then the connection closes.
 */
export function answerAndClose(socket: Duplex, err: HttpError): void {
  const body = JSON.stringify(errorBody(err));
  const head = Object.entries(errorHeaders(err, body)).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? ''}\r\n${head.join('')}\r\n${body}`);
  // Destroying at once would reset a connection whose request bytes are still unread, and a reset
  // can make the client's system drop the answer before it is read. Half-closed, the client reads
  // the answer and hangs up; one that does not is cut shortly after.
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => {
    clearTimeout(linger);
  });
}

/** The same answer for a request Node did parse but the app must not see (HTTP/1.1 without Host). */
export function answerRequest(res: ServerResponse, err: HttpError): void {
  const body = JSON.stringify(errorBody(err));
  res.writeHead(err.status, errorHeaders(err, body)).end(body);
}
