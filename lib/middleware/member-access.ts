import type { Request, RequestHandler } from 'express';
import { ObjectId, type Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { objectsCollection, publishedObjectsCollection } from '../db/collections.js';
import { bucketOf } from '../http/request.js';
import { bucketAccessOf, type ObjectsTouched } from '../routes/access.js';
import { bodyOf, queryOf, valueAt } from './declared-values.js';
import { readOptions } from '../db/service-db.js';
import { slugFilter } from '../objects/find-object.js';
import { MAX_LIST_VALUES } from '../query/limits.js';
import { reorderRefusal } from './reorder-only.js';
import { accountOf, forbidden, memberOf, viaMember } from '../accounts/request-account.js';
import { outsideScope, scopeMessage } from '../accounts/type-scope.js';
import type { MemberDoc } from '../accounts/store.js';

function addressedId(req: Request, touched: ObjectsTouched): string | undefined {
  const id = valueAt(req, touched.id);
  return typeof id === 'string' && ObjectId.isValid(id) ? id : undefined;
}

function addressedSlug(req: Request, touched: ObjectsTouched): string | undefined {
  const slug = valueAt(req, touched.slug);
  return typeof slug === 'string' && slug !== '' ? slug : undefined;
}

/** What narrows a v1 slug lookup (`type_slug`, `locale`): the query of a read, the body of a write. */
const narrowingOf = (req: Request): Record<string, unknown> => (req.method === 'GET' ? queryOf(req) : bodyOf(req));

async function objectById(db: Db, bucket: BucketDoc, id: string) {
  return objectsCollection(db).findOne(
    { _id: new ObjectId(id), bucket_id: bucket._id },
    { ...readOptions(db), projection: { type: 1, status: 1 } },
  );
}

/**
 * The types of the Objects a slug names outside the scope, or none when one of them is inside it
 * (the route's lookup is narrowed to the scope and finds that one) or none exists (the route's 404).
 */
async function slugTypesOutside(db: Db, bucket: BucketDoc, req: Request, slug: string, scope: readonly string[]) {
  const found = await objectsCollection(db)
    .find(slugFilter(bucket, slug, narrowingOf(req)), { ...readOptions(db), projection: { type: 1 } })
    .limit(MAX_LIST_VALUES)
    .toArray();
  const types = found.map((d) => d.type);
  return types.some((t) => !outsideScope(scope, t)) ? [] : types;
}

/** The Object the request addresses (by id first, as the handlers look, else by v1 slug), or null. */
async function addressedObject(db: Db, bucket: BucketDoc, req: Request, touched: ObjectsTouched) {
  const id = addressedId(req, touched);
  if (id !== undefined) return objectById(db, bucket, id);
  const slug = addressedSlug(req, touched);
  if (slug === undefined) return null;
  return objectsCollection(db).findOne(slugFilter(bucket, slug, narrowingOf(req)), {
    ...readOptions(db),
    projection: { type: 1, status: 1 },
  });
}

/** The Object types the request touches, or null when they cannot be known from it. */
async function typesTouched(
  db: Db,
  bucket: BucketDoc,
  req: Request,
  touched: ObjectsTouched,
  scope: readonly string[],
): Promise<unknown[] | null> {
  const named = valueAt(req, touched.type);
  const types = named === undefined ? [] : [named];
  const id = addressedId(req, touched);
  if (id !== undefined) {
    const found = await objectById(db, bucket, id);
    // An id naming no Object touches nothing: the route answers its 404 as for any other role.
    return found ? [...types, found.type] : types;
  }
  const slug = addressedSlug(req, touched);
  if (slug !== undefined) return [...types, ...(await slugTypesOutside(db, bucket, req, slug, scope))];
  if (types.length > 0 || touched.list) return types;
  return null;
}

async function contributorRefusal(
  db: Db,
  bucket: BucketDoc,
  member: MemberDoc,
  req: Request,
  touched: ObjectsTouched,
): Promise<string | null> {
  const scope = member.object_types;
  // Each operation is checked against the Object it touches by the batch itself.
  if (touched.batch) return null;
  const types = await typesTouched(db, bucket, req, touched, scope);
  if (types === null) {
    return 'the contributor role may only address Objects whose type the request names (filter by type, or address one Object)';
  }
  return types.some((t) => outsideScope(scope, t)) ? scopeMessage(scope) : null;
}

/** Whether the Object has a live version (a draft saved over it leaves that one live). */
async function isLive(db: Db, bucket: BucketDoc, id: ObjectId): Promise<boolean> {
  const live = await publishedObjectsCollection(db).findOne(
    { _id: id, bucket_id: bucket._id },
    { ...readOptions(db), projection: { _id: 1 } },
  );
  return live !== null;
}

/** What a write does, as far as draft-only publishing cares. */
export interface WriteIntent {
  method: string;
  body: Record<string, unknown>;
  touched: ObjectsTouched;
  /** The Object the write addresses (its id and status), or null. */
  addressed: () => Promise<{ _id: ObjectId; status?: string } | null>;
}

/**
 * Why a draft-only user's write would change what is live, or null when it would not: it may
 * neither publish nor take live content down (a delete of a live Object, a scheduled withdrawal).
 */
export async function draftOnlyRefusal(db: Db, bucket: BucketDoc, intent: WriteIntent): Promise<string | null> {
  const { body, touched, method } = intent;
  const why = 'the account may only save drafts (publishing_restrictions: draft_only)';
  if (touched.batch) return `${why}: batch writes are not open to it`;
  if (touched.publishes) return `${why}: merging a merge request publishes`;
  if (body.status === 'published') return `${why}: it may not send status "published"`;
  if (body.publish_at !== undefined && body.publish_at !== null) return `${why}: it may not schedule publish_at`;
  if (body.unpublish_at !== undefined && body.unpublish_at !== null)
    return `${why}: it may not schedule unpublish_at, which takes the live version down`;
  if (method === 'DELETE') {
    const found = await intent.addressed();
    return found && (await isLive(db, bucket, found._id))
      ? `${why}: it may not delete an Object that is live (published); it may delete Objects never published`
      : null;
  }
  if (body.status === 'draft') return null;
  if (touched.creates) return `${why}: send status "draft" (new Objects default to published)`;
  if (method === 'POST') return null;
  const found = await intent.addressed();
  if (found?.status === 'published')
    return `${why}: an edit of a published Object without status "draft" changes what is live`;
  return null;
}

/**
 * After authentication, before the route's own handler: for a request let in through an
 * account's role, the checks that need its body or its Objects (a contributor's Object types,
 * draft-only publishing and withdrawing), read from what the matched route declares it touches. The
 * route's writes then act for that account (created_by, modified_by and revisions name it: actorOf).
 * Requests made with a Bucket key never reach it (lib/registry/mount.ts).
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
    const access = bucketAccessOf(res);
    // Editors reach Object type writes only through sort_metafields (lib/accounts/roles.ts).
    if (access.resource === 'object_types' && access.write && member.role === 'editor') {
      const why = await reorderRefusal(db, bucket, req, access);
      if (why !== null) throw forbidden(bucket.slug, why);
    }
    if (access.resource === 'objects') {
      const touched = access.objects ?? {};
      const why =
        (member.role === 'contributor' ? await contributorRefusal(db, bucket, member, req, touched) : null) ??
        (access.write && member.publishing_restrictions === 'draft_only'
          ? await draftOnlyRefusal(db, bucket, {
              method: req.method,
              body: bodyOf(req),
              touched,
              addressed: () => addressedObject(db, bucket, req, touched),
            })
          : null);
      if (why !== null) throw forbidden(bucket.slug, why);
    }
    next();
  };
}
