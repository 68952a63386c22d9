import type { RequestHandler, Response } from 'express';
import { forbidden, memberOf, requireAccountOf } from '../accounts/request-account.js';
import { bucketOf } from '../http/request.js';

/** The account of the request, which must be a user of the addressed Bucket (401 without a token, 403 otherwise). */
function memberAccount(res: Response) {
  const account = requireAccountOf(res);
  const member = memberOf(res);
  if (!member) throw forbidden(bucketOf(res).slug, 'the account is not a user of this Bucket');
  return { account, member };
}

/** Reading Extensions (their url carries the decoded query_params): any user of the Bucket. */
export const requireExtensionReader: RequestHandler = (_req, res, next) => {
  memberAccount(res);
  next();
};

/** The spec: installing, editing and deleting Extensions needs an account token with admin access. Bucket keys never do. */
export const requireExtensionAdmin: RequestHandler = (_req, res, next) => {
  const { member } = memberAccount(res);
  if (member.role !== 'admin') {
    throw forbidden(bucketOf(res).slug, `the ${member.role} role may not manage Extensions (admin access is needed)`);
  }
  next();
};

/** The id of the account behind a request that passed one of the checks above. */
export function actorOf(res: Response): string {
  return requireAccountOf(res)._id.toHexString();
}
