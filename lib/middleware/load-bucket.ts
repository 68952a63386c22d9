import type { Db } from 'mongodb';
import type { Request, RequestHandler, Response } from 'express';
import type { BucketDoc } from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { accountOf, setMember } from '../accounts/request-account.js';
import { findMember } from '../accounts/store.js';
import { findBucketBySlug } from '../buckets/buckets.js';
import { rememberBucket, isRemembered, sameBucketState } from '../cache/bucket-generation.js';
import { hasBulkWrite } from '../db/service-db.js';
import { keepReadAhead, readObjectAhead } from '../objects/objects.js';
import type { VersionMemo } from '../objects/write/version-memo.js';
import { bearerKey, keyMatches, setBucket, bucketOf } from '../http/request.js';
import { IDEMPOTENCY_HEADER } from '../http/idempotency-headers.js';
import { HttpError } from '../errors/http-errors.js';
import { PreconditionFailed } from '../db/write-batch.js';

/** Slugs whose Bucket is remembered; past it the memory starts again (a miss costs only a round). */
const BUCKETS_KEPT = 10_000;

/** How a route takes its Bucket. */
export interface BucketLoading {
  /** The path parameter of the Object a write route edits: that Object is read beside the Bucket (lib/objects/objects.ts). */
  objectParam?: string | undefined;
  /**
   * The route's writes check the Bucket in their own command (lib/cache/bucket-generation.ts),
   * so a request with the write key may take it from memory; its handler goes through
   * `retriedOnFreshBucket` (below).
   */
  fromMemory?: boolean | undefined;
}

export interface BucketLoader {
  /** Resolves :slug to its Bucket for every handler after it, and a token's account to its place there. */
  load: (how?: BucketLoading) => RequestHandler;
  /** Reads the Bucket of `slug` from the database (and remembers it for the next writes); null when there is none. */
  readAfresh: (slug: string) => Promise<BucketDoc | null>;
}

/**
 * `memoryMs`: how long a write may take the Bucket as last read (BUCKET_MEMORY_MS; tests that count
 * commands make it long, so a slow machine's pauses between requests do not change the count).
 * `versions`: the Objects whose latest version the app holds, which a write edits without reading.
 */
export function loadBucket(db: Db, memoryMs: number, versions?: VersionMemo): BucketLoader {
  // Slug → the Bucket last read by it, when. Read requests always read the Bucket (their caches
  // key on its generations); only write routes whose writes check it take it from here.
  const lastRead = new Map<string, LastRead>();

  const read = async (slug: string): Promise<BucketDoc | null> => {
    const bucket = await findBucketBySlug(db, slug);
    if (!bucket) {
      lastRead.delete(slug);
      return null;
    }
    if (lastRead.size >= BUCKETS_KEPT) lastRead.clear();
    lastRead.set(slug, { doc: bucket, at: Date.now() });
    return bucket;
  };

  const load =
    ({ objectParam, fromMemory = false }: BucketLoading = {}): RequestHandler =>
    async (req, res, next) => {
      const slug = String(req.params.slug);
      const last = lastRead.get(slug);
      const account = accountOf(res);
      // Membership is read per request, never cached (a user removed from the Bucket is refused
      // at once), beside the Bucket when its id is known from the last read of the slug.
      const memberAhead = account && last ? findMember(db, last.doc._id, account._id) : null;
      // Awaited below unless the Bucket turns out another; one left untaken must not reject unobserved.
      memberAhead?.catch(() => undefined);
      const writes = last !== undefined && mayWrite(req, res, last.doc);
      const named = objectParam === undefined ? undefined : req.params[objectParam];
      // Not for an Object whose version the app holds at that generation: its edit reads nothing.
      const ahead =
        writes && typeof named === 'string' && versions?.holds(last.doc, named) !== true
          ? readObjectAhead(db, last.doc._id, named)
          : null;
      // A kept answer to an Idempotency-Key is replayed without a write, so without the write's check.
      const remembered =
        fromMemory &&
        writes &&
        account === undefined &&
        req.get(IDEMPOTENCY_HEADER) === undefined &&
        Date.now() - last.at < memoryMs;
      // Without bulkWrite the check would be a command before the commit: a round more than the read beside the Object's.
      const bucket = remembered && (await hasBulkWrite(db)) ? handedOut(last) : await read(slug);
      if (!bucket) throw notFound('bucket', slug);
      setBucket(res, bucket);
      keepReadAhead(res, bucket, ahead);
      if (account) {
        const readBeside = memberAhead && last?.doc._id.equals(bucket._id) ? memberAhead : null;
        setMember(res, await (readBeside ?? findMember(db, bucket._id, account._id)));
      }
      next();
    };

  return { load, readAfresh: read };
}

interface LastRead {
  /** The Bucket as the read gave it to its own request. */
  doc: BucketDoc;
  /** Date.now() of the read. */
  at: number;
  /** Its copy marked for the write's check, made when a write first takes it from memory. */
  remembered?: BucketDoc;
}

/** The Bucket a write takes from memory: made once per read, so reads (most requests) copy nothing. */
function handedOut(last: LastRead): BucketDoc {
  last.remembered ??= rememberBucket(last.doc);
  return last.remembered;
}

/**
 * Whether the request may turn out to be allowed the write, judged by the Bucket as last read: a
 * request with another key (the read key, none, a wrong one) is refused by the Bucket read alone,
 * so reading its Object beside it would be a read for nothing. An account's rights are only known
 * once its membership is read, so a signed-in request reads ahead. A write key sent in the body
 * (legacy clients) is only parsed later: that write reads the Object after the Bucket.
 */
function mayWrite(req: Request, res: Response, last: BucketDoc): boolean {
  return (
    last.write_key_hash === null || accountOf(res) !== undefined || keyMatches(bearerKey(req), last.write_key_hash)
  );
}

/**
 * The one retry of an Object write that is not the write's own (its conflict loop, object-edit.ts
 * and object-delete.ts): `handler` of a route that may take its Bucket from memory
 * (`fromMemory` above). Loading stays loading: the retry wraps the route's handler. Should it
 * fail on such a Bucket having written nothing (the write's check of the Bucket failed, or it
 * refused on what the Bucket said), the Bucket is read
 * afresh, and if it changed, `recheck` (the route's key check, synchronous) runs on it again and
 * the handler runs again, once.
 */
export function retriedOnFreshBucket(
  readAfresh: (slug: string) => Promise<BucketDoc | null>,
  handler: RequestHandler,
  recheck: RequestHandler,
): RequestHandler {
  return async (req, res, next) => {
    const used = bucketOf(res);
    if (!isRemembered(used)) {
      await handler(req, res, next);
      return;
    }
    try {
      await handler(req, res, next);
    } catch (err) {
      if (res.headersSent || !wroteNothing(err)) throw err;
      const fresh = await readAfresh(used.slug);
      if (!fresh) throw notFound('bucket', used.slug);
      if (!(err instanceof PreconditionFailed) && sameBucketState(fresh, used)) throw err;
      setBucket(res, fresh);
      // As the route checked the key on the remembered Bucket; a rotated key is refused here.
      recheck(req, res, () => undefined);
      await handler(req, res, next);
    }
  };
}

/**
 * Whether a handler that failed with `err` surely wrote nothing, so running it again is safe: its
 * write's check of the Bucket failed, or it refused the request (a 4xx is decided before any write,
 * or by a commit that did not happen). Any other failure (the database unreachable mid-command, say)
 * may come after the write applied: running the request again would answer for a second attempt
 * (a 404 for a delete that happened), so its error is the answer.
 */
function wroteNothing(err: unknown): boolean {
  return err instanceof PreconditionFailed || (err instanceof HttpError && err.status < 500);
}
