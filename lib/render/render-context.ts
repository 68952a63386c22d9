import { LRUCache } from 'lru-cache';
import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import type { BucketDoc, ObjectTypeDoc } from '../db/collections.js';
import { mediaUrls } from '../util/media-urls.js';
import type { RenderContext } from './objects.js';
import { listObjectTypes } from '../store/type-reads.js';

/**
 * A Bucket's Object types by slug, kept per Bucket generation. Every type write bumps the
 * Bucket's generation, so the types seen at one generation never change and can be kept
 * without a round trip. One per app (see lib/app-state.ts): a Bucket id and generation
 * name one state of one database only.
 */
export class BucketTypes {
  /** A thousand Bucket generations; the least recently read goes first. */
  private readonly byGeneration = new LRUCache<string, ReadonlyMap<string, ObjectTypeDoc>>({ max: 1000 });

  async of(db: Db, bucket: BucketDoc): Promise<ReadonlyMap<string, ObjectTypeDoc>> {
    const key = `${bucket._id.toHexString()}:${bucket.generation}`;
    const hit = this.byGeneration.get(key);
    if (hit) return hit;
    const types = new Map((await listObjectTypes(db, bucket)).map((t) => [t.slug, t]));
    this.byGeneration.set(key, types);
    return types;
  }
}

/** What rendering Objects of a Bucket needs: its types' Metafields and its file addresses. */
export async function objectRenderContext(
  db: Db,
  config: Config,
  types: BucketTypes,
  bucket: BucketDoc,
): Promise<RenderContext> {
  return {
    types: await types.of(db, bucket),
    fileUrls: (name) => (name ? mediaUrls(config.publicUrl, bucket.slug, name) : null),
  };
}
