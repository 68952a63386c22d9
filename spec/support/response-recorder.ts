import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { ResponseSchemas } from './response-schemas.js';

/**
 * Every JSON answer the integration tests receive is checked against the OpenAPI document's
 * schema for its operation and status; mismatches are collected here and the root after-hook
 * (global-hooks.ts) fails the run listing them. RESPONSE_CHECK=0 turns the check off.
 */
const enabled = process.env.RESPONSE_CHECK !== '0';

let schemas: ResponseSchemas | null = null;
const mismatches = new Map<string, string>();
const counts = { checked: 0, undescribed: 0 };

/** Mismatches seen so far, one line each (the first of each operation and status). */
export function responseMismatches(): string[] {
  return [...mismatches.values()];
}

export function responseCounts(): Readonly<typeof counts> {
  return counts;
}

function check(method: string, url: string, status: number, contentType: string, body: Buffer): void {
  schemas ??= new ResponseSchemas();
  const urlPath = url.split('?')[0] ?? url;
  const pathKey = schemas.match(urlPath);
  // Paths and methods the document does not describe (unknown routes, public file URLs) are no operation to check.
  if (pathKey === undefined || !schemas.describes(pathKey, method.toLowerCase())) return;
  const at = `${method.toUpperCase()} ${pathKey} → ${status}`;
  const validate = schemas.validator(pathKey, method.toLowerCase(), status);
  if (validate === undefined) {
    counts.undescribed += 1;
    if (!mismatches.has(at)) mismatches.set(at, `${at}: status not described (${urlPath})`);
    return;
  }
  if (validate === null || !/^application\/json\b/.test(contentType) || body.length === 0) return;
  counts.checked += 1;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    mismatches.set(at, `${at}: body is not JSON (${urlPath})`);
    return;
  }
  if (!validate(value) && !mismatches.has(at)) {
    const problems = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
    mismatches.set(at, `${at}: ${problems.join('; ')} (${urlPath})`);
  }
}

/** Keeps the bytes of a JSON answer as they are written, then checks them once it is finished. */
function watch(req: IncomingMessage, res: ServerResponse): void {
  // Routers rewrite req.url below their mount point, so the path as sent is read now.
  const { method = 'GET', url = '/' } = req;
  const chunks: Buffer[] = [];
  const isJson = () => /json/.test(String(res.getHeader('content-type') ?? ''));
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function' || !isJson()) return;
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
    );
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return end(...args);
  }) as typeof res.end;
  res.on('finish', () => {
    if (method === 'HEAD') return;
    check(method, url, res.statusCode, String(res.getHeader('content-type') ?? ''), Buffer.concat(chunks));
  });
}

/** The app, with every answer it gives checked against the document (when enabled). */
export function recordResponses(app: Express): Express {
  if (!enabled) return app;
  const handle = (app as unknown as { handle: (...args: unknown[]) => void }).handle.bind(app) as (
    req: IncomingMessage,
    res: ServerResponse,
    next?: unknown,
  ) => void;
  (app as unknown as { handle: typeof handle }).handle = (req, res, next) => {
    watch(req, res);
    handle(req, res, next);
  };
  return app;
}
