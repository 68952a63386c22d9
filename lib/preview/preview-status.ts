import type { Response } from 'express';
import { bucketOf } from '../http/request.js';
import type { StatusFilter } from '../query/read-params.js';
import { verifyPreviewToken, type PreviewSecret } from './preview-tokens.js';
import { markPrivate } from '../http/cache-control.js';

/**
 * The status a read uses: a valid `preview_token` makes it `any` (latest drafts included);
 * an invalid, expired or foreign one is a 401. The read key is still checked before this.
 */
export async function previewAwareStatus(
  res: Response,
  secret: PreviewSecret,
  token: string | undefined,
  requested: StatusFilter,
): Promise<StatusFilter> {
  if (token === undefined) return requested;
  markPrivate(res);
  await verifyPreviewToken(secret, bucketOf(res), token);
  return 'any';
}
