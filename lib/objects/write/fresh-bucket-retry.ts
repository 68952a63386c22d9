import type { RequestHandler } from 'express';
import { notFound } from '../../errors/not-found.js';
import { HttpError } from '../../errors/http-errors.js';
import { isRemembered, sameBucketState } from '../../cache/remembered-bucket.js';
import { PreconditionFailed } from '../../db/write-batch.js';
import { bucketOf, setBucket } from '../../http/request.js';
import type { BucketDoc } from '../../db/collections.js';

/**
 * The one retry of an Object write that is not the write's own (its conflict loop, object-edit.ts
 * and object-delete.ts): `handler` of a route that may take its Bucket from memory
 * (lib/middleware/load-bucket.ts). Should it fail on such a Bucket having written nothing (the
 * write's check of the Bucket failed, or it refused on what the Bucket said), the Bucket is read
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
