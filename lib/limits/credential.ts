import type { Request } from 'express';
import type { BucketDoc } from '../db/collections.js';
import { clientOfAddress } from '../http/connection-limits.js';
import { bearerKey } from '../http/bearer-key.js';
import { keyMatches } from '../http/bucket-keys.js';
import type { RequestKind } from './rate-limits.js';

export interface Credential {
  /** Whose per-minute budget the request spends. */
  budgetKey: string;
  /** A key of the Bucket was presented, or the Bucket needs none for this kind of request. */
  entitled: boolean;
}

/** Whose share a request counts against when no key speaks for it: its address (IPv6: its /64). */
export function clientOf(req: Request): string {
  return clientOfAddress(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}

/** The budget of the Bucket's write key, however the key was presented. */
export function writeKeyBudget(bucket: BucketDoc): string {
  return `${bucket._id.toHexString()}:write-key`;
}

/**
 * The credential a request presents to its Bucket. A key counts as itself only when it is one of
 * the Bucket's keys; anything else (no key, a wrong key, a write key sent only in a legacy body,
 * which is not read yet) spends the budget of the client's address, so made-up keys cannot buy
 * fresh budgets; a body write key spends its key's budget too once read (lib/limits/body-key.ts). An account token of a user of the Bucket counts as that account.
 */
export function credentialOf(req: Request, bucket: BucketDoc, kind: RequestKind, memberId?: string): Credential {
  const id = bucket._id.toHexString();
  if (memberId !== undefined) return { budgetKey: `${id}:account:${memberId}`, entitled: true };
  const readKeyParam: unknown = req.query.read_key;
  const presented = [bearerKey(req), typeof readKeyParam === 'string' ? readKeyParam : undefined];
  if (presented.some((k) => keyMatches(k, bucket.write_key_hash)))
    return { budgetKey: writeKeyBudget(bucket), entitled: true };
  if (presented.some((k) => keyMatches(k, bucket.read_key_hash)))
    return { budgetKey: `${id}:read-key`, entitled: kind === 'read' };
  const open = (kind === 'read' ? bucket.read_key_hash : bucket.write_key_hash) === null;
  return { budgetKey: `${id}:ip:${clientOf(req)}`, entitled: open };
}
