import type { Config } from '../config.js';
import type { BucketDoc } from '../db/collections.js';
import type { MediaDoc } from '../db/media-collection.js';
import { mediaUrls } from './media-urls.js';

/** A media record as read; a list whose `props` do not ask for metadata leaves it out. */
export type ReadMedia = Omit<MediaDoc, 'metadata'> & { metadata?: MediaDoc['metadata'] };

/**
 * A media record as the API shows it. `location` is the base of the file store on the upload
 * host, so `${location}/${name}` addresses the file as `url` does.
 */
export function renderMedia(doc: ReadMedia, config: Config, bucket: BucketDoc): Record<string, unknown> {
  const { url, imgproc_url } = mediaUrls(config, bucket.slug, doc.name);
  const out: Record<string, unknown> = {
    id: doc._id.toHexString(),
    name: doc.name,
    original_name: doc.original_name,
    size: doc.size,
    type: doc.type,
    bucket: doc.bucket_id.toHexString(),
    created: doc.created_at.toISOString(),
    created_at: doc.created_at.toISOString(),
    modified_at: doc.modified_at.toISOString(),
    location: `${config.uploadUrl}/files/${encodeURIComponent(bucket.slug)}`,
    folder: doc.folder,
    url,
    imgproc_url,
    alt_text: doc.alt_text,
    metadata: doc.metadata,
  };
  if (doc.width !== null && doc.height !== null) {
    out.width = doc.width;
    out.height = doc.height;
  }
  return out;
}
