import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { ResponseSchemas } from './response-schemas.js';

/**
 * Every JSON answer the integration tests receive is checked against the OpenAPI document's
 * schema for its operation and status; mismatches are collected here and the root after-hook
 * (global-hooks.ts) fails the run listing them. RESPONSE_CHECK=0 turns the check off.
 */
const enabled = process.env.RESPONSE_CHECK !== '0';

let schemas: ResponseSchemas | null = null;
const mismatches = new Map<string, string>();
/** Answers checked, and the milliseconds the checks took (the document's loading and compiling included). */
const counts = { checked: 0, ms: 0 };

/** Mismatches seen so far, one line each (the first of each operation and status). */
export function responseMismatches(): string[] {
  return [...mismatches.values()];
}

export function responseCounts(): Readonly<typeof counts> {
  return counts;
}

/** An answer as the client received it. */
export interface Answer {
  method: string;
  /** The path and query as sent. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * What is wrong with an answer by the document: null when it matches (or is no documented
 * operation's), else the operation and status (the key mismatches are kept by) and the problem.
 */
export function checkAnswer(from: ResponseSchemas, a: Answer): { at: string; problem: string } | null {
  const urlPath = a.url.split('?')[0] ?? a.url;
  const method = a.method.toLowerCase();
  const pathKey = from.match(urlPath);
  // Paths and methods the document does not describe (unknown routes, public file URLs) are no operation to check.
  if (pathKey === undefined || !from.describes(pathKey, method)) return null;
  const at = `${a.method.toUpperCase()} ${pathKey} → ${a.status}`;
  // No route answered (an app that serves other paths, such as the METRICS_PORT one): no operation either.
  if (a.status === 404 && a.body.includes('"route_not_found"')) return null;
  const validate = from.validator(pathKey, method, a.status);
  if (validate === undefined) return { at, problem: `status not described (${urlPath})` };
  if (validate === null || !/^application\/json\b/.test(a.contentType) || a.body.length === 0) return null;
  counts.checked += 1;
  let value: unknown;
  try {
    value = JSON.parse(a.body.toString('utf8'));
  } catch {
    return { at, problem: `body is not JSON (${urlPath})` };
  }
  if (validate(value)) return null;
  const problems = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  return { at, problem: `${problems.join('; ')} (${urlPath})` };
}

function record(a: Answer): void {
  const started = performance.now();
  schemas ??= new ResponseSchemas();
  const found = checkAnswer(schemas, a);
  counts.ms += performance.now() - started;
  if (found && !mismatches.has(found.at)) mismatches.set(found.at, `${found.at}: ${found.problem}`);
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
    const contentType = String(res.getHeader('content-type') ?? '');
    record({ method, url, status: res.statusCode, contentType, body: Buffer.concat(chunks) });
  });
}

type Handle = (this: unknown, req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
let installed = false;

/**
 * Every Express app the test process builds (freshHarness's and the ones specs build
 * themselves) has each answer checked: express copies `application.handle` onto each app it
 * creates, so wrapping it once, before any spec runs, covers them all.
 */
export function recordEveryApp(): void {
  if (!enabled || installed) return;
  installed = true;
  const proto = express.application as unknown as { handle: Handle };
  const handle = proto.handle;
  proto.handle = function (this: unknown, req, res, next) {
    watch(req, res);
    handle.call(this, req, res, next);
  };
}
