import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import type { BucketDoc } from '../db/collections.js';
import { mediaUrls } from '../serializers/media-urls.js';
import type { RenderContext } from '../serializers/object.js';
import { listObjectTypes } from './object-types.js';

/** What rendering Objects of a Bucket needs: its types' Metafields and its file addresses. */
export async function objectRenderContext(db: Db, config: Config, bucket: BucketDoc): Promise<RenderContext> {
  const types = await listObjectTypes(db, bucket);
  return {
    types: new Map(types.map((t) => [t.slug, t])),
    fileUrls: (name) => (name ? mediaUrls(config, bucket.slug, name) : null),
  };
}
