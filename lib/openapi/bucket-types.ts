import type { Db } from 'mongodb';
import { findBucketBySlug } from '../buckets/buckets.js';
import { BucketAdminError } from '../errors/domain-errors.js';
import { listObjectTypes } from '../store/type-reads.js';
import { bucketDocument } from './bucket-document.js';
import { openApiDocument } from './document.js';
import { typeScriptOfDocument } from './typescript.js';

/**
 * `bucketctl types <slug>`: TypeScript declarations of the Bucket's Object types, from the
 * document GET /v3/buckets/{slug}/openapi.json answers (the same function builds both).
 */
export async function bucketTypeScript(db: Db, publicUrl: string, slug: string): Promise<string> {
  const bucket = await findBucketBySlug(db, slug);
  if (!bucket) throw new BucketAdminError(`Bucket "${slug}" does not exist`);
  const types = await listObjectTypes(db, bucket);
  return typeScriptOfDocument(bucketDocument(openApiDocument(publicUrl), bucket.slug, types));
}
