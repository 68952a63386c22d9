import type { RequestHandler, Response } from 'express';

/** What a route touches, as it declares it; the role table (lib/accounts/roles.ts) grants by these. */
export type Resource =
  'bucket' | 'objects' | 'media' | 'object_types' | 'webhooks' | 'settings' | 'users' | 'extensions';

/**
 * Where a route finds the Object it addresses, or the type it names: a path parameter, a body
 * field (the first of several that is present), a query parameter, or the v3 `query` filter's
 * plain `type`. Named exactly as the route's handler reads it, so the role check and the handler
 * can never look at different fields.
 */
export type Source =
  | { readonly param: string }
  | { readonly body: readonly string[] }
  | { readonly query: string }
  | { readonly filter: 'type' };

/** What an Objects route touches, as far as a contributor's types and draft-only publishing care. */
export interface ObjectsTouched {
  /** The Object addressed by id. */
  readonly id?: Source;
  /** The Object addressed by v1 slug (narrowed by the request's `type_slug` and `locale`). */
  readonly slug?: Source;
  /** The Object type the request names: the type of a new Object, or the type a list reads. */
  readonly type?: Source;
  /** A list, which narrows itself to the caller's types when it names none. */
  readonly list?: true;
  /** A batch, which checks each operation against the Object it touches. */
  readonly batch?: true;
  /** Creates an Object (which is published unless the body says draft). */
  readonly creates?: true;
  /** Publishes whatever it touches (merging a merge request). */
  readonly publishes?: true;
}

/**
 * Who may call a route, declared where the route is registered. The access check reads the
 * declaration of the route that matched, never the URL: Express decides which route runs, so
 * any spelling it accepts is checked as that route.
 */
export type Access =
  /** No credential (status, the OpenAPI document, public file URLs, login). */
  | { readonly kind: 'public' }
  /** An account token; no Bucket (the account's Buckets, the account itself). */
  | { readonly kind: 'account' }
  /** A Bucket's keys or a member's role, on `resource`, reading or writing. */
  | {
      readonly kind: 'bucket';
      readonly resource: Resource;
      readonly write: boolean;
      readonly objects?: ObjectsTouched;
      /** Edits one Object type's definition, named here: the only Object type write `sort_metafields` may make (a reorder). */
      readonly typeEdit?: Source;
      /**
       * The check of a route only an account may call (users, Extensions, deleting the Bucket),
       * run instead of the key check and before anything else. See `accountOnly`.
       */
      readonly accountCheck?: RequestHandler;
      /**
       * The key check runs before the route's other handlers rather than just before its own: its
       * body is a file, read only for a caller already let in, and its key can only be in a header.
       */
      readonly checkFirst?: true;
    };

export type BucketAccess = Extract<Access, { kind: 'bucket' }>;

export const PUBLIC: Access = { kind: 'public' };
export const ACCOUNT: Access = { kind: 'account' };

export function readAccess(resource: Resource, objects?: ObjectsTouched): BucketAccess {
  return objects ? { kind: 'bucket', resource, write: false, objects } : { kind: 'bucket', resource, write: false };
}

export function writeAccess(resource: Resource, objects?: ObjectsTouched): BucketAccess {
  return objects ? { kind: 'bucket', resource, write: true, objects } : { kind: 'bucket', resource, write: true };
}

/** A write that edits the Object type `named` names (and may be a mere reorder of its Metafields). */
export function typeEditAccess(named: Source): BucketAccess {
  return { kind: 'bucket', resource: 'object_types', write: true, typeEdit: named };
}

/** `access` for a route only an account may call: `check` replaces the key check (lib/registry/mount.ts). */
export function accountOnly(access: BucketAccess, check: RequestHandler): BucketAccess {
  return { ...access, accountCheck: check };
}

/** `access` whose key check runs first, before the route reads a body it must not read for nothing. */
export function checkedFirst(access: BucketAccess): BucketAccess {
  return { ...access, checkFirst: true };
}

/** The Object addressed by the `:object_id` path parameter. */
export const BY_OBJECT_ID: ObjectsTouched = { id: { param: 'object_id' } };
/** v1: the Object addressed by the `:object_slug` path parameter. */
export const BY_PATH_SLUG: ObjectsTouched = { slug: { param: 'object_slug' } };
/** v1: the Objects of the type the `:type_slug` path parameter names. */
export const BY_PATH_TYPE: ObjectsTouched = { list: true, type: { param: 'type_slug' } };
/** v1 writes naming their Object in the body, by id first (lib/objects/find-object.ts), else by slug. */
export const NAMED_IN_BODY: ObjectsTouched = { id: { body: ['id', '_id'] }, slug: { body: ['slug'] } };

/** What the matched route declared, kept on the response by the router (lib/routes/route-table.ts). */
export interface MatchedRoute {
  /** The route's pattern with its mount prefix ("/v3/buckets/:slug/objects"): the metrics label. */
  readonly pattern: string;
  readonly access: Access;
}

interface RouteLocals {
  matchedRoute?: MatchedRoute;
  /** The Bucket slug the matched route's path names (`:slug`, or `:bucket` on file addresses): for the request line. */
  routeBucket?: string;
}

export function setMatchedRoute(res: Response, matched: MatchedRoute, bucket: string | undefined): void {
  const locals = res.locals as RouteLocals;
  locals.matchedRoute = matched;
  if (bucket !== undefined) locals.routeBucket = bucket;
}

export function routeBucketOf(res: Response): string | null {
  return (res.locals as RouteLocals).routeBucket ?? null;
}

export function matchedRouteOf(res: Response): MatchedRoute | undefined {
  return (res.locals as RouteLocals).matchedRoute;
}

/** The Bucket access the matched route declared; a Bucket route without one is a programming error, refused. */
export function bucketAccessOf(res: Response): BucketAccess {
  const access = matchedRouteOf(res)?.access;
  if (access?.kind !== 'bucket') throw new Error('a Bucket route without an access declaration');
  return access;
}
