import type { Db, ObjectId } from 'mongodb';
import type { Request, RequestHandler, Response } from 'express';
import type { BucketDoc } from '../db/collections.js';
import { notFound } from '../errors/not-found.js';
import { accountOf, setMember } from '../accounts/request-account.js';
import { findMember } from '../accounts/store.js';
import { findBucketBySlug } from '../buckets/buckets.js';
import { keepReadAhead, readObjectAhead } from '../objects/read-ahead.js';
import { keyMatches } from '../buckets/keys.js';
import { bearerKey } from '../http/bearer-key.js';

/** Slugs whose Bucket id is remembered; past it the memory starts again (a miss costs only a round). */
const BUCKET_IDS_KEPT = 10_000;

/**
 * Resolves :slug to its Bucket for every handler after it, and a token's account to its place
 * there. `objectParam` names the path parameter of the Object a write route edits: that Object
 * is read beside the Bucket (lib/objects/read-ahead.ts).
 */
export function loadBucket(db: Db): (objectParam?: string) => RequestHandler {
  // Slug → id and write key digest of the Bucket last read by it: only the guess a read ahead
  // needs. The Bucket itself is read on every request, so keys, types and plans are never taken
  // from here.
  const lastRead = new Map<string, LastRead>();
  return (objectParam) => async (req, res, next) => {
    const slug = String(req.params.slug);
    const guess = lastRead.get(slug);
    const named = objectParam === undefined ? undefined : req.params[objectParam];
    const ahead =
      guess && typeof named === 'string' && mayWrite(req, res, guess) ? readObjectAhead(db, guess.id, named) : null;
    const bucket = await findBucketBySlug(db, slug);
    if (!bucket) {
      lastRead.delete(slug);
      throw notFound('bucket', slug);
    }
    if (!guess?.id.equals(bucket._id) || guess.writeKeyHash !== bucket.write_key_hash) {
      if (lastRead.size >= BUCKET_IDS_KEPT) lastRead.clear();
      lastRead.set(slug, { id: bucket._id, writeKeyHash: bucket.write_key_hash });
    }
    res.locals.bucket = bucket;
    keepReadAhead(res, bucket, ahead);
    // Read per request, never cached: a user removed from the Bucket is refused at once.
    const account = accountOf(res);
    if (account) setMember(res, await findMember(db, bucket._id, account._id));
    next();
  };
}

interface LastRead {
  id: ObjectId;
  writeKeyHash: string | null;
}

/**
 * Whether the request may turn out to be allowed the write, judged by the Bucket as last read: a
 * request with another key (the read key, none, a wrong one) is refused by the Bucket read alone,
 * so reading its Object beside it would be a read for nothing. An account's rights are only known
 * once its membership is read, so a signed-in request reads ahead. A write key sent in the body
 * (legacy clients) is only parsed later: that write reads the Object after the Bucket.
 */
function mayWrite(req: Request, res: Response, last: LastRead): boolean {
  return last.writeKeyHash === null || accountOf(res) !== undefined || keyMatches(bearerKey(req), last.writeKeyHash);
}

export function bucketOf(res: Response): BucketDoc {
  return res.locals.bucket as BucketDoc;
}
