import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import type { BucketDoc, ObjectTypeDoc } from '../db/collections.js';
import { mediaUrls } from '../serializers/media-urls.js';
import type { RenderContext } from '../serializers/object.js';
import { listObjectTypes } from './object-types.js';

const MAX_ENTRIES = 1000;
const typesByGeneration = new Map<string, ReadonlyMap<string, ObjectTypeDoc>>();

/**
 * A Bucket's Object types by slug. Every type write bumps the Bucket's generation, so the
 * types seen at one generation never change and can be kept in-process without a round trip.
 */
export async function bucketTypes(db: Db, bucket: BucketDoc): Promise<ReadonlyMap<string, ObjectTypeDoc>> {
  const key = `${bucket._id.toHexString()}:${bucket.generation}`;
  const hit = typesByGeneration.get(key);
  if (hit) return hit;
  const types = new Map((await listObjectTypes(db, bucket)).map((t) => [t.slug, t]));
  if (typesByGeneration.size >= MAX_ENTRIES) {
    const oldest = typesByGeneration.keys().next();
    if (!oldest.done) typesByGeneration.delete(oldest.value);
  }
  typesByGeneration.set(key, types);
  return types;
}

/** What rendering Objects of a Bucket needs: its types' Metafields and its file addresses. */
export async function objectRenderContext(db: Db, config: Config, bucket: BucketDoc): Promise<RenderContext> {
  return {
    types: await bucketTypes(db, bucket),
    fileUrls: (name) => (name ? mediaUrls(config, bucket.slug, name) : null),
  };
}
