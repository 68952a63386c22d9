import type { Request, Response } from 'express';
import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { bucketOf } from '../middleware/load-bucket.js';
import type { StatusFilter } from '../services/object-views.js';
import { verifyPreviewToken } from '../services/preview-tokens.js';
import { singleParam } from './params.js';

/**
 * The status a read uses: a valid `preview_token` makes it `any` (latest drafts included);
 * an invalid, expired or foreign one is a 401. The read key is still checked before this.
 */
export async function previewAwareStatus(
  req: Request,
  res: Response,
  db: Db,
  config: Config,
  requested: StatusFilter,
): Promise<StatusFilter> {
  const token = singleParam(req, 'preview_token');
  if (token === undefined) return requested;
  await verifyPreviewToken(db, config.previewTokenSecret, bucketOf(res), token);
  return 'any';
}
