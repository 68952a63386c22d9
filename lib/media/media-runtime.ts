import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { PerClientLimit } from '../http/per-client-limit.js';
import { BackgroundRemover } from './background-remover.js';
import { ImageProcessor } from './imgproc.js';
import { VariantStore } from './variant-store.js';

/** Uploads one address may have in progress while their key is still unknown. */
export const MAX_KEYLESS_UPLOADS_PER_CLIENT = 2;

/**
 * The media state of one app instance: shared by the v3 and legacy upload routes and the file
 * routes, and never kept in module variables, so two apps in one process stay independent.
 */
export interface MediaRuntime {
  /** Removes refused, aborted and evicted files off the request path. */
  remover: BackgroundRemover;
  /** Makes processed images, a bounded number at a time. */
  images: ImageProcessor;
  /** Uploads in progress whose write key is not known yet, per client address. */
  keylessUploads: PerClientLimit;
}

export function createMediaRuntime(config: Config, db: Db, log: (msg: string) => void): MediaRuntime {
  const remover = new BackgroundRemover(db, log);
  const variants = new VariantStore(db, remover, config.imgprocCacheBytesPerBucket);
  return {
    remover,
    images: new ImageProcessor(db, variants, config.imgprocConcurrency),
    keylessUploads: new PerClientLimit(MAX_KEYLESS_UPLOADS_PER_CLIENT),
  };
}
