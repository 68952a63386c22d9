import type { Request, RequestHandler, Response } from 'express';
import { ObjectId, type Db } from 'mongodb';
import type { AppState } from '../../app-state.js';
import { bucketsCollection } from '../../db/collections.js';
import { BucketAdminError } from '../../errors/domain-errors.js';
import { BadRequestError, NotFoundError } from '../../errors/http-errors.js';
import { sendJson } from '../../http/respond.js';
import { clientOf } from '../../limits/rate-limits.js';
import { bucketOf } from '../../http/request.js';
import { createBucket, deleteBucket } from '../../buckets/buckets.js';
import { readOptions } from '../../db/service-db.js';
import { isPlainObject } from '../../util/values.js';
import { forbidden, memberOf, requireAccountOf } from '../../accounts/request-account.js';
import { findMember, makeAdmin, membersCollection, type AccountDoc } from '../../accounts/store.js';

/** The account itself, never its password hash. */
export function renderAccount(a: AccountDoc) {
  return { id: a._id.toHexString(), email: a.email, first_name: a.first_name, last_name: a.last_name, ...a.profile };
}

/** v1 names ids `_id`, v2 `id`. */
export type IdName = '_id' | 'id';

async function accountBuckets(db: Db, account: AccountDoc, idName: IdName) {
  const members = await membersCollection(db).find({ account_id: account._id }, readOptions(db)).toArray();
  const buckets = await bucketsCollection(db)
    .find({ _id: { $in: members.map((m) => m.bucket_id) } }, readOptions(db))
    .sort({ slug: 1 })
    .toArray();
  const byBucket = new Map(members.map((m) => [m.bucket_id.toHexString(), m]));
  return buckets.map((b) => {
    const member = byBucket.get(b._id.toHexString());
    return {
      [idName]: b._id.toHexString(),
      slug: b.slug,
      role: member?.role,
      // What the account may do there beside its role, so a client (Studio) shapes its pages
      // from this list and never asks something only to learn from the refusal.
      publishing_restrictions: member?.publishing_restrictions ?? null,
      ...(member?.role === 'contributor' ? { object_types: member.object_types } : {}),
      created_at: b.created_at.toISOString(),
    };
  });
}

export function authenticateHandler(state: AppState): RequestHandler {
  return async (req, res) => {
    const { account, issued } = await state.logins.login(req.body, clientOf(req));
    sendJson(res, 200, {
      success: true,
      token: issued.token,
      expires_at: issued.expires_at,
      user: renderAccount(account),
    });
  };
}

export function bucketsHandler(db: Db, idName: IdName): RequestHandler {
  return async (_req: Request, res: Response) => {
    const buckets = await accountBuckets(db, requireAccountOf(res), idName);
    sendJson(res, 200, { buckets, total: buckets.length });
  };
}

export const userHandler: RequestHandler = (_req, res) => {
  sendJson(res, 200, { user: renderAccount(requireAccountOf(res)) });
};

/** POST /v2/buckets (and v1's, with `_id`): a Bucket owned by the caller; its keys are shown this once. */
export function createBucketHandler(db: Db, idName: IdName): RequestHandler {
  return async (req, res) => {
    const account = requireAccountOf(res);
    const slug = isPlainObject(req.body) ? req.body.slug : undefined;
    if (typeof slug !== 'string')
      throw new BadRequestError('Invalid body: slug is required and must be a string', 'invalid_body');
    try {
      const keys = await createBucket(db, slug, { kind: 'generate' }, { kind: 'generate' });
      const bucket = await bucketsCollection(db).findOne({ slug }, readOptions(db));
      if (bucket) await makeAdmin(db, bucket._id, account._id);
      sendJson(res, 200, { bucket: { [idName]: bucket?._id.toHexString(), ...keys, role: 'admin' } });
    } catch (err) {
      if (err instanceof BucketAdminError) throw new BadRequestError(err.message, 'invalid_body');
      throw err;
    }
  };
}

/** DELETE /v2/buckets/:slug: admins only; the Bucket and everything in it. */
/** Deleting a Bucket by slug: an account that is an admin of it; its keys never may. */
export const requireBucketAdmin: RequestHandler = (_req, res, next) => {
  requireAccountOf(res);
  if (memberOf(res)?.role !== 'admin') throw forbidden(bucketOf(res).slug, 'only an admin of the Bucket may delete it');
  next();
};

export function deleteBucketHandler(db: Db): RequestHandler {
  return async (_req, res) => {
    const bucket = bucketOf(res);
    await deleteBucket(db, bucket.slug);
    sendJson(res, 200, { message: `Bucket '${bucket.slug}' deleted successfully.` });
  };
}

/**
 * DELETE /v1/buckets/:bucket_id, as the v1 client addresses it (by id): admins only. A Bucket the
 * account is not a user of is 404, as if absent, so ids cannot be probed for existence.
 */
export function deleteBucketByIdHandler(db: Db): RequestHandler {
  return async (req, res) => {
    const account = requireAccountOf(res);
    const id = String(req.params.bucket_id);
    const missing = new NotFoundError(`Bucket with id '${id}' not found`, 'bucket_not_found');
    if (!ObjectId.isValid(id) || id.length !== 24) throw missing;
    const bucket = await bucketsCollection(db).findOne({ _id: new ObjectId(id) }, readOptions(db));
    const member = bucket ? await findMember(db, bucket._id, account._id) : null;
    if (!bucket || !member) throw missing;
    if (member.role !== 'admin') throw forbidden(bucket.slug, 'only an admin of the Bucket may delete it');
    await deleteBucket(db, bucket.slug);
    sendJson(res, 200, { message: `Bucket '${bucket.slug}' deleted successfully.` });
  };
}

/** GET /v2/buckets/:slug: the Bucket itself (never its keys), with the caller's role when a member asks. */
export const bucketHandler: RequestHandler = (_req, res) => {
  const bucket = bucketOf(res);
  const role = memberOf(res)?.role;
  sendJson(res, 200, {
    bucket: {
      id: bucket._id.toHexString(),
      slug: bucket.slug,
      created_at: bucket.created_at.toISOString(),
      modified_at: bucket.modified_at.toISOString(),
      ...(role ? { role } : {}),
    },
  });
};
