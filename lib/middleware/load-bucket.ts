import type { Db } from 'mongodb';
import type { RequestHandler, Response } from 'express';
import type { BucketDoc } from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { accountOf, setMember } from '../accounts/request-account.js';
import { findMember } from '../accounts/store.js';
import { findBucketBySlug } from '../buckets/buckets.js';

/** Resolves :slug to its Bucket for every handler after it, and a token's account to its place there. */
export function loadBucket(db: Db): RequestHandler {
  return async (req, res, next) => {
    const slug = String(req.params.slug);
    const bucket = await findBucketBySlug(db, slug);
    if (!bucket) throw notFound('bucket', slug);
    res.locals.bucket = bucket;
    // Read per request, never cached: a user removed from the Bucket is refused at once.
    const account = accountOf(res);
    if (account) setMember(res, await findMember(db, bucket._id, account._id));
    next();
  };
}

export function bucketOf(res: Response): BucketDoc {
  return res.locals.bucket as BucketDoc;
}
