import type { Request, Response } from 'express';
import { bucketOf } from '../http/request-bucket.js';
import { keyMatches } from '../http/bucket-keys.js';

/** What the gate leaves for later: spending the write key's budget, once the body is read. */
type Deferred = () => Promise<void>;

interface BodyKeyLocals {
  bodyKeyAdmission?: Deferred | undefined;
}

const locals = (res: Response): BodyKeyLocals => res.locals as BodyKeyLocals;

/**
 * Called by the request gate for a write it counted against the client's address: the request
 * may still carry the write key in its body (`write_key`, the legacy clients' way), which the
 * gate cannot see because it runs before the body is read, so that refused requests cost nothing.
 */
export function deferBodyKeyAdmission(res: Response, admit: Deferred): void {
  locals(res).bodyKeyAdmission = admit;
}

/**
 * Runs once a write body or upload form is parsed: when its `write_key` is the Bucket's write key
 * and the gate could only count the request against the address, it spends the key's budget too
 * (429 once that is used), so a spent write key gains no second budget by moving into the body.
 * At most once per request.
 */
export async function admitBodyKey(req: Request, res: Response): Promise<void> {
  const admit = locals(res).bodyKeyAdmission;
  if (!admit) return;
  locals(res).bodyKeyAdmission = undefined;
  const body = req.body as Record<string, unknown> | undefined;
  const presented = typeof body?.write_key === 'string' ? body.write_key : undefined;
  if (keyMatches(presented, bucketOf(res).write_key_hash)) await admit();
}
