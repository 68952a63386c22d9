import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { RefusedEndpoint, resolveEndpoint, type Lookup, type Target } from '../webhooks/resolve.js';
import { pinnedRequestOptions } from '../webhooks/send.js';

/** How the service fetches an extension's archive or page: the webhooks' address rules, bounded. */
export interface OutboundOptions {
  /** Loopback and private addresses may be fetched (WEBHOOK_ALLOW_PRIVATE); link-local never. */
  allowPrivate: boolean;
  timeoutMs: number;
  /** A longer body is refused. */
  maxBytes: number;
  /** Certificates trusted besides the system's: only tests pass one, for their own https server. */
  ca?: string | Buffer | undefined;
  lookup?: Lookup | undefined;
}

export interface Fetched {
  url: URL;
  headers: IncomingHttpHeaders;
  /** Empty when the caller wanted the headers only. */
  body: Buffer;
}

/** The address could not be fetched, or answered something unusable; the message says which. */
export class FetchFailure extends Error {}

const MAX_REDIRECTS = 3;

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function getOnce(
  target: Target,
  opts: OutboundOptions,
  withBody: boolean,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const secure = target.url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request({
      method: 'GET',
      ...pinnedRequestOptions(target),
      headers: { accept: withBody ? 'application/zip, */*' : 'text/html, */*', 'user-agent': 'content-api-extensions' },
      agent: false,
      signal,
      ...(secure && opts.ca !== undefined ? { ca: opts.ca } : {}),
    });
    request.on('error', reject);
    request.on('response', resolve);
    request.end();
  });
}

function readCapped(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(res.headers['content-length'] ?? 0);
    if (declared > maxBytes) {
      res.destroy();
      reject(new FetchFailure(`its answer is ${declared} bytes, over the ${maxBytes}-byte cap`));
      return;
    }
    const parts: Buffer[] = [];
    let seen = 0;
    res.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) {
        res.destroy();
        reject(new FetchFailure(`its answer is over the ${maxBytes}-byte cap`));
      } else parts.push(chunk);
    });
    res.on('end', () => {
      resolve(Buffer.concat(parts));
    });
    res.on('error', (err) => {
      reject(new FetchFailure(`its answer broke off: ${err.message}`));
    });
  });
}

async function follow(start: URL, opts: OutboundOptions, withBody: boolean, signal: AbortSignal): Promise<Fetched> {
  let url = start;
  for (let hop = 0; ; hop++) {
    let target: Target;
    try {
      target = await resolveEndpoint(url.href, opts.allowPrivate, opts.lookup);
    } catch (err) {
      if (err instanceof RefusedEndpoint) throw new FetchFailure(err.message);
      throw err;
    }
    let res: IncomingMessage;
    try {
      res = await getOnce(target, opts, withBody, signal);
    } catch (err) {
      throw new FetchFailure(`it could not be reached: ${describe(err)}`);
    }
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location !== undefined) {
      res.destroy();
      if (hop === MAX_REDIRECTS) throw new FetchFailure(`it redirects more than ${MAX_REDIRECTS} times`);
      const next = new URL(location, url);
      // A redirect may not downgrade an https address, nor leave http(s).
      if (next.protocol !== 'https:' && (start.protocol === 'https:' || next.protocol !== 'http:')) {
        throw new FetchFailure(`it redirects to ${next.protocol} (${next.href}), which is not allowed`);
      }
      url = next;
      continue;
    }
    if (status < 200 || status >= 300) {
      res.destroy();
      throw new FetchFailure(`it answered HTTP ${status}`);
    }
    if (!withBody) res.destroy();
    return { url, headers: res.headers, body: withBody ? await readCapped(res, opts.maxBytes) : Buffer.alloc(0) };
  }
}

/**
 * GETs `url` through the webhooks' SSRF guard: its host is resolved and every address checked
 * (lib/webhooks/address-policy.ts), the connection goes to the checked address, each redirect
 * (at most three) is checked the same way, and the whole exchange ends within `timeoutMs`.
 * Throws FetchFailure saying why when the answer cannot be had.
 */
export async function guardedGet(url: URL, opts: OutboundOptions, withBody: boolean): Promise<Fetched> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      // Aborting destroys the request and any answer being read, so nothing lingers.
      abort.abort();
      reject(new FetchFailure(`it did not answer within ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
  });
  try {
    return await Promise.race([follow(url, opts, withBody, abort.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
