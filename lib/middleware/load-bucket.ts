import type { Db, ObjectId } from 'mongodb';
import type { RequestHandler, Response } from 'express';
import type { BucketDoc } from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { accountOf, setMember } from '../accounts/request-account.js';
import { findMember } from '../accounts/store.js';
import { findBucketBySlug } from '../buckets/buckets.js';
import { keepReadAhead, readObjectAhead } from '../objects/read-ahead.js';

/** Slugs whose Bucket id is remembered; past it the memory starts again (a miss costs only a round). */
const BUCKET_IDS_KEPT = 10_000;

/**
 * Resolves :slug to its Bucket for every handler after it, and a token's account to its place
 * there. `objectParam` names the path parameter of the Object a write route edits: that Object
 * is read beside the Bucket (lib/objects/read-ahead.ts).
 */
export function loadBucket(db: Db): (objectParam?: string) => RequestHandler {
  // Slug → id of the Bucket last read by it: only the guess a read ahead needs. The Bucket itself
  // is read on every request, so keys, types and plans are never taken from here.
  const bucketIds = new Map<string, ObjectId>();
  return (objectParam) => async (req, res, next) => {
    const slug = String(req.params.slug);
    const guess = bucketIds.get(slug);
    const named = objectParam === undefined ? undefined : req.params[objectParam];
    const ahead = guess && typeof named === 'string' ? readObjectAhead(db, guess, named) : null;
    const bucket = await findBucketBySlug(db, slug);
    if (!bucket) {
      bucketIds.delete(slug);
      throw notFound('bucket', slug);
    }
    if (!guess?.equals(bucket._id)) {
      if (bucketIds.size >= BUCKET_IDS_KEPT) bucketIds.clear();
      bucketIds.set(slug, bucket._id);
    }
    res.locals.bucket = bucket;
    keepReadAhead(res, bucket, ahead);
    // Read per request, never cached: a user removed from the Bucket is refused at once.
    const account = accountOf(res);
    if (account) setMember(res, await findMember(db, bucket._id, account._id));
    next();
  };
}

export function bucketOf(res: Response): BucketDoc {
  return res.locals.bucket as BucketDoc;
}
