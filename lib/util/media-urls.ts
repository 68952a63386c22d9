import type { Config } from '../config.js';
import type { ApiFileUrls } from '../metafields/render-types.js';

/** Public addresses of a stored file: the original bytes and the on-the-fly image processor. */
export function mediaUrls(config: Config, bucketSlug: string, name: string): ApiFileUrls {
  const path = `${encodeURIComponent(bucketSlug)}/${encodeURIComponent(name)}`;
  return { url: `${config.publicUrl}/files/${path}`, imgproc_url: `${config.publicUrl}/imgproc/${path}` };
}
