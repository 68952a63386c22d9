import type { Picked } from '../query/props.js';
import type { Config } from '../config.js';
import type { BucketDoc } from '../db/collections.js';
import type { MediaDoc } from '../store/media.js';
import { mediaUrls } from '../util/media-urls.js';

/** A media item as the v3 API answers it (schemas/Media.json). */
export type ApiMedia = {
  id: string;
  name: string;
  original_name: string;
  size: number;
  type: string;
  bucket: string;
  created: string;
  created_at: string;
  modified_at: string;
  location: string;
  folder: string | null;
  url: string;
  imgproc_url: string;
  alt_text: string;
  metadata: Record<string, unknown>;
  /** Images whose size could be read only. */
  width?: number;
  height?: number;
};

/** A media record as read; a list whose `props` do not ask for metadata leaves it out. */
export type ReadMedia = Omit<MediaDoc, 'metadata'> & { metadata?: MediaDoc['metadata'] };

/**
 * A media record as the API shows it. `location` is the base of the file store on the upload
 * host, so `${location}/${name}` addresses the file as `url` does.
 */
export function renderMedia(doc: ReadMedia, config: Config, bucket: BucketDoc): ApiMedia {
  const { url, imgproc_url } = mediaUrls(config.publicUrl, bucket.slug, doc.name);
  return {
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
    // Left unread only when `props` does not show it, so the empty stand-in is never sent.
    metadata: doc.metadata ?? {},
    ...(doc.width !== null && doc.height !== null && { width: doc.width, height: doc.height }),
  };
}

/* Bodies of the media responses (schemas/MediaResponse.json, MediaList.json); lists take `props`-narrowed items. */
export type MediaResponse<Item = ApiMedia> = { media: Item };
export type MediaList<Item = Picked> = { media: Item[]; total: number };
/** The v1/v2 media list: also the page size it applied. */
export type LegacyMediaList<Item = Picked> = MediaList<Item> & { limit: number };
