import type { Request, Response } from 'express';
import { bucketOf } from '../middleware/load-bucket.js';
import type { StatusFilter } from '../services/object-views.js';
import { verifyPreviewToken, type PreviewSecret } from '../services/preview-tokens.js';
import { singleParam } from './params.js';

/**
 * The status a read uses: a valid `preview_token` makes it `any` (latest drafts included);
 * an invalid, expired or foreign one is a 401. The read key is still checked before this.
 */
export async function previewAwareStatus(
  req: Request,
  res: Response,
  secret: PreviewSecret,
  requested: StatusFilter,
): Promise<StatusFilter> {
  const token = singleParam(req, 'preview_token');
  if (token === undefined) return requested;
  await verifyPreviewToken(secret, bucketOf(res), token);
  return 'any';
}
