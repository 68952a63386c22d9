import type { Response } from 'express';
import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { bucketOf } from '../middleware/load-bucket.js';
import type { StatusFilter } from '../query/read-params.js';
import { verifyPreviewToken } from '../services/preview-tokens.js';
import { markPrivate } from './cache-control.js';

/**
 * The status a read uses: a valid `preview_token` makes it `any` (latest drafts included);
 * an invalid, expired or foreign one is a 401. The read key is still checked before this.
 */
export async function previewAwareStatus(
  res: Response,
  db: Db,
  config: Config,
  token: string | undefined,
  requested: StatusFilter,
): Promise<StatusFilter> {
  if (token === undefined) return requested;
  markPrivate(res);
  await verifyPreviewToken(db, config.previewTokenSecret, bucketOf(res), token);
  return 'any';
}
