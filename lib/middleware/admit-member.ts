import type { Response } from 'express';
import { bucketOf } from '../http/request.js';
import { accountErrorOf, accountOf, forbidden, markViaMember, memberOf } from '../accounts/request-account.js';
import { bucketAccessOf } from '../routes/access.js';
import { roleRefusal } from '../accounts/roles.js';

/**
 * Called when no Bucket key let the request in: true when an account token does, through the
 * account's role in the Bucket; 403 when the role does not allow what the request touches or
 * the account is not (or no longer) a user of the Bucket; a refused token's own 401.
 * False when no token was presented, so the caller answers its usual 401.
 */
export function admitMember(res: Response, write: boolean): boolean {
  const refused = accountErrorOf(res);
  if (refused) throw refused;
  if (!accountOf(res)) return false;
  const bucket = bucketOf(res);
  const member = memberOf(res);
  if (!member) throw forbidden(bucket.slug, 'the account is not a user of this Bucket');
  // The matched route's declaration, never the URL: every spelling Express accepts is this route.
  const access = bucketAccessOf(res);
  const why = roleRefusal(member, access.resource, write || access.write);
  if (why !== null) throw forbidden(bucket.slug, why);
  markViaMember(res);
  return true;
}
