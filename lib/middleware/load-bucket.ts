import type { Db } from 'mongodb';
import type { RequestHandler, Response } from 'express';
import type { BucketDoc } from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { findBucketBySlug } from '../services/buckets.js';

/** Resolves :slug to its Bucket for every handler after it. */
export function loadBucket(db: Db): RequestHandler {
  return async (req, res, next) => {
    const slug = String(req.params.slug);
    const bucket = await findBucketBySlug(db, slug);
    if (!bucket) throw notFound('bucket', slug);
    res.locals.bucket = bucket;
    next();
  };
}

export function bucketOf(res: Response): BucketDoc {
  return res.locals.bucket as BucketDoc;
}
