import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { typeScopeOf } from '../accounts/type-scope.js';
import type { ReadCache } from '../cache/read-cache.js';
import { bucketOf } from '../http/request.js';
import { readGeneration } from '../cache/bucket-generation.js';
import { allParams } from '../http/request.js';
import { ReadLimitError } from '../errors/domain-limits.js';
import { readLimitAnswer, sendText, serializeCapped } from '../http/respond-capped.js';

/** Parameters that never change what a read returns (auth is checked before the cache). */
const IGNORED = new Set(['read_key', 'useCache']);

/** Built from the parsed parameters, so `limit=` and no `limit`, or unknown extras, share an entry. */
function cacheKey(req: Request, res: Response, generation: string): string {
  const bucket = bucketOf(res);
  const params = Object.entries(allParams(res))
    .filter(([k, v]) => !IGNORED.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join('&');
  // A contributor's list is narrowed to its types: it must neither read nor fill the whole list's entry.
  const scope = typeScopeOf(res);
  const scoped = scope === null ? '' : `&type_scope=${JSON.stringify(scope)}`;
  // The mount point too: v2 and v3 share paths below it, and their answers differ (v2's media list adds `limit`).
  return `${bucket._id.toHexString()}:${generation}:${req.baseUrl}${req.path}?${params}${scoped}`;
}

/** A read's body, produced and serialized within the response cap; reads that are never cached use it alone. */
export async function producedCapped(res: Response, produce: () => Promise<unknown>): Promise<string> {
  let body: unknown;
  try {
    body = await produce();
  } catch (err) {
    // Services refuse an oversized read without knowing the route; the answer advises for it.
    throw err instanceof ReadLimitError ? readLimitAnswer(res, err) : err;
  }
  return serializeCapped(res, body);
}

/** A random order must differ between reads, so such a read is never cached (nor answered from the cache). */
function isRandom(res: Response): boolean {
  return allParams(res).sort?.trim() === 'random';
}

/**
 * The strong ETag of a read that answers one version of one document: the version first, so a
 * client may send it back in If-Match (lib/http/if-match.ts), then a digest of the body, since the
 * same version reads differently with `props`, `depth` or a changed type.
 */
function versionedTag(version: string, text: string): string {
  const digest = createHash('sha1').update(text).digest('base64url').slice(0, 16);
  return `"${version}-${digest}"`;
}

/**
 * A kept answer of a versioned read holds its version before the body, on a line of its own
 * (a version never holds a line break); an unversioned read's is the body alone.
 */
function sendKept(res: Response, kept: string, versioned: boolean): void {
  if (!versioned) {
    sendText(res, kept);
    return;
  }
  const cut = kept.indexOf('\n');
  const version = kept.slice(0, cut);
  const text = kept.slice(cut + 1);
  if (version !== '') res.set('ETag', versionedTag(version, text));
  sendText(res, text);
}

/**
 * Serves a read from the cache when allowed, otherwise produces, caps (413) and caches it.
 * `useCache=false` reads through and refreshes the entry for later readers; `sort=random` skips the cache.
 * `versionOf` names the version a body answers (one Object's read), which then leads its ETag.
 */
export async function cachedRead(
  cache: ReadCache,
  req: Request,
  res: Response,
  useCache: boolean,
  produce: () => Promise<unknown>,
  /** What the read depends on (lib/cache/bucket-generation.ts); by default the whole Bucket's state. */
  generation: string = readGeneration(bucketOf(res)),
  versionOf?: (body: unknown) => string | undefined,
): Promise<void> {
  let version: string | undefined;
  const versioned = versionOf !== undefined;
  const producing = versioned
    ? async () => {
        const body = await produce();
        version = versionOf(body);
        return body;
      }
    : produce;
  if (isRandom(res)) {
    sendText(res, await producedCapped(res, producing));
    return;
  }
  const key = cacheKey(req, res, generation);
  if (useCache) {
    const hit = cache.get(key);
    if (hit !== undefined) {
      res.set('X-Cache', 'HIT');
      sendKept(res, hit, versioned);
      return;
    }
  }
  const text = await producedCapped(res, producing);
  const kept = versioned ? `${version ?? ''}\n${text}` : text;
  cache.set(key, kept);
  res.set('X-Cache', 'MISS');
  sendKept(res, kept, versioned);
}
