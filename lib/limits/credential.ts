import type { Request } from 'express';
import type { BucketDoc } from '../db/collections.js';
import { clientOfAddress } from '../http/connection-limits.js';
import { bearerKey } from '../middleware/authenticate.js';
import { keyMatches } from '../services/keys.js';

/**
 * Whose budget a request spends: its Bucket and the credential it presents. A key counts as
 * itself only when it is one of the Bucket's keys; anything else (no key, a wrong key, a write
 * key sent only in a legacy body, which is not read yet) spends the budget of the client's
 * address, so made-up keys cannot buy fresh budgets. There are no account tokens to tell apart.
 */
export function budgetKey(req: Request, bucket: BucketDoc): string {
  const id = bucket._id.toHexString();
  const readKeyParam: unknown = req.query.read_key;
  const presented = [bearerKey(req), typeof readKeyParam === 'string' ? readKeyParam : undefined];
  if (presented.some((k) => keyMatches(k, bucket.write_key_hash))) return `${id}:write-key`;
  if (presented.some((k) => keyMatches(k, bucket.read_key_hash))) return `${id}:read-key`;
  return `${id}:ip:${clientOfAddress(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`;
}
