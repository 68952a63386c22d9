import { v1Route, type V1Route } from '../legacy/v1/route.js';
import { jsonBody } from '../../http/json-body.js';
import { NO_PARAMS, paramSet } from '../../query/read-params.js';
import type { RouteDeps } from '../deps.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import {
  authenticateHandler,
  bucketHandler,
  bucketsHandler,
  createBucketHandler,
  deleteBucketByIdHandler,
  deleteBucketHandler,
  requireBucketAdmin,
  userHandler,
} from './account-routes.js';
import { userRoutes } from './user-routes.js';
import { accountOnly, ACCOUNT, PUBLIC, readAccess, writeAccess } from '../../routes/access.js';

/** GET /v2/buckets/:slug: a member's token, or the Bucket's read key. */
const BUCKET_READ = paramSet(['read_key']);

/** The account-level v1 routes: token, the account's Buckets (list, create, delete), and each Bucket's users. */
export function v1AccountRoutes({ config, db, state }: RouteDeps): V1Route[] {
  const body = jsonBody(config.jsonBodyLimit);
  return [
    v1Route('post', '/authenticate', NO_PARAMS, PUBLIC, body, authenticateHandler(state)),
    v1Route('get', '/buckets', NO_PARAMS, ACCOUNT, bucketsHandler(db, '_id')),
    v1Route('post', '/buckets', NO_PARAMS, ACCOUNT, body, createBucketHandler(db, '_id')),
    // The v1 client names the Bucket by id, so the handler finds it and checks the account's role itself.
    v1Route('delete', '/buckets/:bucket_id', NO_PARAMS, ACCOUNT, deleteBucketByIdHandler(db)),
    ...userRoutes(db, config.jsonBodyLimit).map((r) =>
      v1Route(r.method, `/:slug/users${r.sub}`, NO_PARAMS, r.access, ...r.handlers),
    ),
  ];
}

/** The account-level v2 routes: as v1's, plus the account itself and reading one Bucket. */
export function v2AccountRoutes({ config, db, state }: RouteDeps): RouteDef[] {
  const body = jsonBody(config.jsonBodyLimit);
  return [
    route('post', '/authenticate', NO_PARAMS, PUBLIC, body, authenticateHandler(state)),
    route('get', '/user', NO_PARAMS, ACCOUNT, userHandler),
    route('get', '/buckets', NO_PARAMS, ACCOUNT, bucketsHandler(db, 'id')),
    route('post', '/buckets', NO_PARAMS, ACCOUNT, body, createBucketHandler(db, 'id')),
    route('get', '/buckets/:slug', BUCKET_READ, readAccess('bucket'), bucketHandler),
    route(
      'delete',
      '/buckets/:slug',
      NO_PARAMS,
      accountOnly(writeAccess('bucket'), requireBucketAdmin),
      deleteBucketHandler(db),
    ),
    ...userRoutes(db, config.jsonBodyLimit).map((r) =>
      route(r.method, `/buckets/:slug/users${r.sub}`, NO_PARAMS, r.access, ...r.handlers),
    ),
  ];
}
