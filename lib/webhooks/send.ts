import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Target } from './resolve.js';

/** What one POST came to. */
export interface SendResult {
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The first RESPONSE_BODY_KEPT bytes of the answer, as text. */
  responseBody: string;
}

export const RESPONSE_BODY_KEPT = 1024;
/** Read past the kept part so the connection can be reused; a longer answer is cut off. */
const RESPONSE_BODY_DRAINED = 64 * 1024;

/** Keep-alive connections per worker: a busy endpoint is not reconnected to for every delivery. */
export interface Agents {
  http: http.Agent;
  https: https.Agent;
  destroy(): void;
}

export function createAgents(maxSockets: number): Agents {
  const opts = { keepAlive: true, maxSockets };
  const agents = { http: new http.Agent(opts), https: new https.Agent(opts) };
  return {
    ...agents,
    destroy: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** Answers every lookup with the address already checked: the connection cannot go elsewhere. */
function pinnedLookup(target: Target): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/** Where a request to the checked target goes: its URL's parts, with every lookup pinned to the checked address. */
export function pinnedRequestOptions(target: Target) {
  return {
    protocol: target.url.protocol,
    hostname: target.url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: target.url.port === '' ? undefined : Number(target.url.port),
    path: `${target.url.pathname}${target.url.search}`,
    lookup: pinnedLookup(target),
  };
}

/** A reset of a reused connection before any answer: the race of a server's keep-alive timeout. */
function staleKeepAlive(request: http.ClientRequest, status: number | null, err: NodeJS.ErrnoException): boolean {
  return request.reusedSocket && status === null && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
}

/**
 * POSTs `body` to the checked target. Never rejects: a network error, a timeout or a cut-off
 * answer is a result like a status code. The whole exchange must end within `timeoutMs`; an
 * answer whose status arrived in time but whose body did not is judged by its status.
 */
export function postOnce(
  target: Target,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  agents: Agents,
  started = performance.now(),
): Promise<SendResult> {
  const secure = target.url.protocol === 'https:';
  return new Promise((resolve) => {
    let status: number | null = null;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let settled = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        status,
        error,
        durationMs: Math.round(performance.now() - started),
        responseBody: Buffer.concat(kept).toString('utf8'),
      });
    };
    const request = (secure ? https : http).request({
      method: 'POST',
      ...pinnedRequestOptions(target),
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: secure ? agents.https : agents.http,
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish(status === null ? `no answer within ${timeoutMs} ms` : null);
    }, timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) => {
      if (!settled && staleKeepAlive(request, status, err)) {
        // The endpoint closed this idle keep-alive connection as it was reused: the request never
        // reached anyone, so it goes again at once. A failed socket is dropped, so this ends.
        settled = true;
        clearTimeout(timer);
        resolve(postOnce(target, headers, body, timeoutMs, agents, started));
        return;
      }
      finish(err.message);
    });
    request.on('response', (res: IncomingMessage) => {
      status = res.statusCode ?? null;
      let seen = 0;
      res.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (keptBytes < RESPONSE_BODY_KEPT) {
          const part = chunk.subarray(0, RESPONSE_BODY_KEPT - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
        if (seen > RESPONSE_BODY_DRAINED) {
          res.destroy();
          finish(null);
        }
      });
      res.on('end', () => {
        finish(null);
      });
      res.on('error', () => {
        finish(null);
      });
    });
    request.end(body);
  });
}
