import type { Config } from '../config.js';

/** Public addresses of a stored file: the original bytes and the on-the-fly image processor. */
export function mediaUrls(config: Config, bucketSlug: string, name: string): { url: string; imgproc_url: string } {
  const path = `${encodeURIComponent(bucketSlug)}/${encodeURIComponent(name)}`;
  return { url: `${config.publicUrl}/files/${path}`, imgproc_url: `${config.publicUrl}/imgproc/${path}` };
}
