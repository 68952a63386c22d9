import type { Response } from 'express';
import type { BucketDoc } from '../db/collections.js';

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
