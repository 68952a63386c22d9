import type { Request, RequestHandler } from 'express';
import { ObjectId, type Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { objectsCollection } from '../db/collections.js';
import { bucketOf } from '../middleware/load-bucket.js';
import { readOptions } from '../services/query-time-limit.js';
import { isPlainObject } from '../util/plain-object.js';
import { slugFilter } from '../legacy/v1/find-object.js';
import { MAX_LIST_VALUES } from '../query/limits.js';
import { runAsActor } from './actor.js';
import { accountOf, forbidden, memberOf, viaMember } from './request-account.js';
import { resourceOfPath } from './resource.js';
import { outsideScope, scopeMessage } from './type-scope.js';
import type { MemberDoc } from './store.js';

const bodyOf = (req: Request): Record<string, unknown> => (isPlainObject(req.body) ? req.body : {});
const pathOf = (req: Request): string => req.originalUrl.split('?')[0] ?? '';

/** The Object the request addresses by id: `:object_id` in the path, or a body's `id`/`_id`/`object_id`. */
function addressedId(req: Request): string | undefined {
  const body = bodyOf(req);
  const id = req.params.object_id ?? body.id ?? body._id ?? body.object_id;
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

/** v1 routes naming their Object by slug in the body (or by id, which addressedId reads first). */
const NAMED_IN_BODY = /^\/v1\/[^/]+\/(edit-object|edit-object-metafields|delete-object)$/;

/** The Object the request addresses by v1 slug: `:object_slug` in the path, or a v1 body's `slug`. */
function addressedSlug(req: Request): string | undefined {
  const slug = req.params.object_slug ?? (NAMED_IN_BODY.test(pathOf(req)) ? bodyOf(req).slug : undefined);
  return typeof slug === 'string' && slug !== '' ? slug : undefined;
}

/**
 * The types of the Objects a slug names outside the scope, or none when one of them is inside it
 * (the route's lookup is narrowed to the scope and finds that one) or none exists (the route's 404).
 */
async function slugTypesOutside(db: Db, bucket: BucketDoc, req: Request, slug: string, scope: readonly string[]) {
  const narrow = req.method === 'GET' ? (isPlainObject(req.query) ? req.query : {}) : bodyOf(req);
  const found = await objectsCollection(db)
    .find(slugFilter(bucket, slug, narrow), { ...readOptions(db), projection: { type: 1 } })
    .limit(MAX_LIST_VALUES)
    .toArray();
  const types = found.map((d) => d.type);
  return types.some((t) => !outsideScope(scope, t)) ? [] : types;
}

/** The Object a v1 slug names, as the route's own lookup finds it (find-object.ts), or undefined. */
async function slugAddressedObject(db: Db, bucket: BucketDoc, req: Request) {
  const slug = addressedSlug(req);
  if (slug === undefined) return undefined;
  return objectsCollection(db).findOne(slugFilter(bucket, slug, bodyOf(req)), {
    ...readOptions(db),
    projection: { type: 1, status: 1 },
  });
}

/** The type a list read names: v1's `type` or path type, or a plain `type` of the v3 `query` filter. */
function listedType(req: Request): string | undefined {
  const named = req.params.type_slug ?? req.query.type;
  if (typeof named === 'string') return named;
  if (typeof req.query.query !== 'string') return undefined;
  try {
    const filter: unknown = JSON.parse(req.query.query);
    const type = isPlainObject(filter) ? filter.type : undefined;
    const eq = isPlainObject(type) ? type.$eq : type;
    return typeof eq === 'string' ? eq : undefined;
  } catch {
    return undefined;
  }
}

/** Object lists, which narrow themselves to the scope (lib/accounts/type-scope.ts) when they name no type. */
const LIST = /^\/v[123]\/(buckets\/)?[^/]+\/(objects|object-type\/[^/]+(\/search)?)$/;

/** The Object types the request touches, or null when they cannot be known from it. */
async function typesTouched(
  db: Db,
  bucket: BucketDoc,
  req: Request,
  write: boolean,
  scope: readonly string[],
): Promise<unknown[] | null> {
  const body = bodyOf(req);
  const named = write ? (body.type ?? body.type_slug) : listedType(req);
  const types = named === undefined ? [] : [named];
  if (addressedId(req) !== undefined) {
    const found = await addressedObject(db, bucket, req);
    // An id naming no Object touches nothing: the route answers its 404 as for any other role.
    return found ? [...types, found.type] : types;
  }
  const slug = addressedSlug(req);
  if (slug !== undefined) return [...types, ...(await slugTypesOutside(db, bucket, req, slug, scope))];
  if (types.length > 0 || (!write && LIST.test(pathOf(req)))) return types;
  return null;
}

async function contributorRefusal(
  db: Db,
  bucket: BucketDoc,
  member: MemberDoc,
  req: Request,
  write: boolean,
): Promise<string | null> {
  const scope = member.object_types;
  // Each operation is checked against the Object it touches by the batch itself.
  if (write && pathOf(req).endsWith('/objects/batch')) return null;
  const types = await typesTouched(db, bucket, req, write, scope);
  if (types === null) {
    return 'the contributor role may only address Objects whose type the request names (filter by type, or address one Object)';
  }
  return types.some((t) => outsideScope(scope, t)) ? scopeMessage(scope) : null;
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
  const found = (await addressedObject(db, bucket, req)) ?? (await slugAddressedObject(db, bucket, req));
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
