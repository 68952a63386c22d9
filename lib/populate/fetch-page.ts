import { MongoServerError, type Document } from 'mongodb';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { tooLarge } from '../http/respond-capped.js';
import type { ObjectView } from '../services/object-views.js';
import { expandObject } from './expand.js';
import { pageWithRelatedPipeline, splitFacet } from './pipeline.js';

/**
 * The facet answers in one document, which MongoDB caps at 16 MB: a page and its relations that
 * large is over the 6 MB response cap anyway, so it is the client's 413, not a server failure.
 */
export function isDocumentTooLarge(err: unknown): boolean {
  return (
    err instanceof MongoServerError &&
    (err.code === 10334 || err.code === 4031700 || err.codeName === 'BSONObjectTooLarge')
  );
}

/**
 * The Objects `head` selects, with relationships expanded `depth` levels, in one aggregation.
 * Related Objects come from the same view (status) and Bucket as the page.
 */
export async function fetchExpandedPage(
  view: ObjectView,
  bucket: BucketDoc,
  head: Document[],
  projection: Document | null,
  depth: number,
): Promise<ObjectDoc[]> {
  const pipeline = pageWithRelatedPipeline(head, {
    collection: view.coll.collectionName,
    match: { bucket_id: bucket._id, ...view.match },
    depth,
    projection,
  });
  let result: Record<string, ObjectDoc[]> | undefined;
  try {
    [result] = await view.coll.aggregate<Record<string, ObjectDoc[]>>(pipeline).toArray();
  } catch (err) {
    if (isDocumentTooLarge(err)) throw tooLarge(16 * 1024 * 1024);
    throw err;
  }
  const { page, related } = splitFacet(result);
  return page.map((doc) => expandObject(doc, related, depth));
}
