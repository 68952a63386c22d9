import type { Request, RequestHandler } from 'express';
import { ObjectId, type Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { objectsCollection } from '../db/collections.js';
import { bucketOf } from '../middleware/load-bucket.js';
import { readOptions } from '../services/query-time-limit.js';
import { isPlainObject } from '../util/plain-object.js';
import { runAsActor } from './actor.js';
import { accountOf, forbidden, memberOf, viaMember } from './request-account.js';
import { resourceOfPath } from './resource.js';
import type { MemberDoc } from './store.js';

const bodyOf = (req: Request): Record<string, unknown> => (isPlainObject(req.body) ? req.body : {});
const pathOf = (req: Request): string => req.originalUrl.split('?')[0] ?? '';

/** The Object the request addresses by id: `:object_id` in the path, or a legacy body's `id`/`_id`. */
function addressedId(req: Request): string | undefined {
  const body = bodyOf(req);
  const id = req.params.object_id ?? body.id ?? body._id;
  return typeof id === 'string' && ObjectId.isValid(id) ? id : undefined;
}

async function addressedObject(db: Db, bucket: BucketDoc, req: Request) {
  const id = addressedId(req);
  if (id === undefined) return undefined;
  return objectsCollection(db).findOne(
    { _id: new ObjectId(id), bucket_id: bucket._id },
    { ...readOptions(db), projection: { type: 1, status: 1 } },
  );
}

/** The type a list read is narrowed to: v1's `type`, or `type` of the v3 `query` filter. */
function listedType(req: Request): unknown {
  if (typeof req.query.type === 'string') return req.query.type;
  if (typeof req.query.query !== 'string') return undefined;
  try {
    const filter: unknown = JSON.parse(req.query.query);
    return isPlainObject(filter) ? filter.type : undefined;
  } catch {
    return undefined;
  }
}

/** The Object types the request touches, or null when they cannot be known from it. */
async function typesTouched(db: Db, bucket: BucketDoc, req: Request, write: boolean): Promise<unknown[] | null> {
  const found = await addressedObject(db, bucket, req);
  const body = bodyOf(req);
  const named = write ? (body.type ?? body.type_slug) : listedType(req);
  const types = [found?.type, named].filter((t) => t !== undefined);
  return types.length > 0 || found === null ? types : null;
}

async function contributorRefusal(
  db: Db,
  bucket: BucketDoc,
  member: MemberDoc,
  req: Request,
  write: boolean,
): Promise<string | null> {
  const types = await typesTouched(db, bucket, req, write);
  if (types === null) {
    return 'the contributor role may only address Objects whose type the request names (filter by type, or address one Object)';
  }
  const outside = types.filter((t) => typeof t !== 'string' || !member.object_types.includes(t));
  return outside.length === 0
    ? null
    : `the contributor role is limited to the Object types ${member.object_types.join(', ')}`;
}

const CREATE = /\/(objects|add-object)$/;

/** Why a draft-only user's write would publish, or null when it would not. */
async function publishRefusal(db: Db, bucket: BucketDoc, req: Request): Promise<string | null> {
  const body = bodyOf(req);
  const why = 'the account may only save drafts (publishing_restrictions: draft_only)';
  if (pathOf(req).endsWith('/batch')) return `${why}: batch writes are not open to it`;
  if (/\/merge-requests\/[^/]+\/merge$/.test(pathOf(req))) return `${why}: merging a merge request publishes`;
  if (body.status === 'published') return `${why}: it may not send status "published"`;
  if (body.publish_at !== undefined && body.publish_at !== null) return `${why}: it may not schedule publish_at`;
  if (body.status === 'draft' || req.method === 'DELETE') return null;
  if (req.method === 'POST' && CREATE.test(pathOf(req)))
    return `${why}: send status "draft" (new Objects default to published)`;
  if (req.method === 'POST') return null;
  const found = await addressedObject(db, bucket, req);
  if (found?.status === 'published')
    return `${why}: an edit of a published Object without status "draft" changes what is live`;
  return null;
}

/**
 * After authentication, before the route's own handler: for a request let in through an
 * account's role, the checks that need its body or its Objects (a contributor's Object types,
 * draft-only publishing), then the rest of the request runs as that account (created_by,
 * modified_by and revisions name it). Requests made with a Bucket key pass untouched.
 */
export function memberAccess(db: Db): RequestHandler {
  return async (req, res, next) => {
    const member = memberOf(res);
    const account = accountOf(res);
    if (!viaMember(res) || !member || !account) {
      next();
      return;
    }
    const bucket = bucketOf(res);
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    if (resourceOfPath(pathOf(req)) === 'objects') {
      const why =
        (member.role === 'contributor' ? await contributorRefusal(db, bucket, member, req, write) : null) ??
        (write && member.publishing_restrictions === 'draft_only' ? await publishRefusal(db, bucket, req) : null);
      if (why !== null) throw forbidden(bucket.slug, why);
    }
    runAsActor(account._id.toHexString(), next);
  };
}
