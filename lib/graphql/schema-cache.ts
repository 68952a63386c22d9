import { LRUCache } from 'lru-cache';
import type { GraphQLSchema } from 'graphql';
import type { Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import type { BucketTypes } from '../render/objects.js';
import { buildBucketSchema } from './schema.js';

/**
 * Each Bucket's GraphQL schema, built once per Bucket generation: every Object type write bumps
 * the generation, so the next request after a type change gets a schema made from the new types.
 * One per app, like the types it is made from.
 */
export class BucketSchemas {
  private readonly byGeneration = new LRUCache<string, GraphQLSchema>({ max: 200 });

  async of(db: Db, types: BucketTypes, bucket: BucketDoc): Promise<GraphQLSchema> {
    const key = `${bucket._id.toHexString()}:${bucket.generation}`;
    const hit = this.byGeneration.get(key);
    if (hit) return hit;
    const schema = buildBucketSchema([...(await types.of(db, bucket)).values()]);
    this.byGeneration.set(key, schema);
    return schema;
  }
}
