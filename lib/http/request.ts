// What a handler reads from its request: the read parameters, the Bucket its route loaded, the raw
// query string, the key it presents (with how keys are made and compared), and what a legacy
// adapter left beside the body it translated.
import type { RequestHandler, Response, Request } from 'express';
import { BadRequestError } from '../errors/http-errors.js';
import { parseReadParams, type ParamName, type Params, type ParamSet, type ParamValues } from '../query/read-params.js';
import type { BucketDoc } from '../db/collections.js';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

interface Parsed {
  set: ParamSet<ParamName>;
  values: Readonly<Partial<ParamValues>>;
}

/**
 * Reads the parameters `set` declares, once, into a frozen object for everything after it; every
 * problem is reported in one 400. Runs first on a route, so even the Bucket's 404 honours `pretty`.
 */
export function readParamsOnce(set: ParamSet<ParamName>): RequestHandler {
  return (req, res, next) => {
    const { values, problems } = parseReadParams(req.query, set);
    const parsed: Parsed = { set, values };
    res.locals.readParams = parsed;
    if (problems.length > 0) {
      throw new BadRequestError(`Invalid parameters: ${problems.join('; ')}`, 'invalid_parameter');
    }
    next();
  };
}

function parsedOf(res: Response): Parsed | undefined {
  return res.locals.readParams as Parsed | undefined;
}

/** The route's parameters, typed by its declaration; reading another route's set is a programming error. */
export function readParams<K extends ParamName>(res: Response, set: ParamSet<K>): Params<K> {
  const parsed = parsedOf(res);
  if (parsed?.set !== set) throw new Error('readParams: this route did not read these parameters');
  return parsed.values as Params<K>;
}

/** One parameter for code shared by several routes (authentication); the route must declare it. */
export function paramOf<N extends ParamName>(res: Response, name: N): ParamValues[N] {
  const parsed = parsedOf(res);
  if (!parsed?.set.names.includes(name)) throw new Error(`paramOf: the route does not take ${name}`);
  return parsed.values[name] as ParamValues[N];
}

/** Every parameter the route read, for cache keys: equal values give equal keys. */
export function allParams(res: Response): Readonly<Partial<ParamValues>> {
  const parsed = parsedOf(res);
  if (!parsed) throw new Error('allParams: no parameters were read for this route');
  return parsed.values;
}

/** The parameters the route takes, so answers can advise only those. */
export function declaredParams(res: Response): readonly ParamName[] {
  return parsedOf(res)?.set.names ?? [];
}

/** Whether JSON bodies are indented: false before parameters are read or when `pretty` was invalid. */
export function prettyOf(res: Response): boolean {
  return parsedOf(res)?.values.pretty ?? false;
}

/**
 * The Bucket a request addresses, as its route loaded it (lib/middleware/load-bucket.ts). Kept
 * here, below the pipeline and every resource, because every layer that serves a Bucket route
 * reads it: reading it must not make a resource depend on how it was loaded.
 */
export function bucketOf(res: Response): BucketDoc {
  return res.locals.bucket as BucketDoc;
}

/** Sets the Bucket every later handler of the request reads with `bucketOf`. */
export function setBucket(res: Response, bucket: BucketDoc): void {
  res.locals.bucket = bucket;
}

/**
 * Query-string parser for every route. Unlike the form decoder, a `+` stays a literal `+`:
 * old clients build `query` with encodeURI, which leaves `+` unescaped inside JSON values.
 * A repeated name becomes an array, which parameter readers reject by name.
 */
export function parseQueryString(qs: string): Record<string, string | string[]> {
  // No prototype, so a parameter named `constructor` or `__proto__` is just a parameter.
  const out = Object.create(null) as Record<string, string | string[]>;
  if (!qs) return out;
  for (const part of qs.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeComponent(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decodeComponent(part.slice(eq + 1));
    const prev = out[name];
    if (prev === undefined) out[name] = value;
    else out[name] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** Malformed percent-escapes are kept as written; the parameter's own validation rejects them. */
function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** 192 random bits: long enough that a plain SHA-256 digest is a safe way to store it. */
export function generateKey(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Keys are random high-entropy secrets (not passwords), so a fast digest is enough and keeps
 * authentication off the request's critical path; a slow KDF would cost every read.
 */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Compares a presented key with a stored digest without leaking timing. */
export function keyMatches(presented: string | undefined, storedHash: string | null): boolean {
  if (presented === undefined || storedHash === null) return false;
  const a = Buffer.from(hashKey(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `Authorization: Bearer <key>`, or the bare key, which the spec also accepts. */
export function bearerKey(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return (m?.[1] ?? header).trim();
}

const SENT = 'ownMetafieldDefinitions';

/**
 * A legacy body translated for a v3 write handler (v2 Objects) leaves its `metafields` entries
 * here, so the handler stores the Object's own Metafields they define; v3 bodies never set it.
 */
export function keepSentDefinitions(res: Response, entries: unknown[]): void {
  res.locals[SENT] = entries;
}

/** The entries keepSentDefinitions left for this request, if any. */
export function sentDefinitions(res: Response): unknown[] | undefined {
  const entries: unknown = res.locals[SENT];
  return Array.isArray(entries) ? entries : undefined;
}
