import type { Document } from 'mongodb';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import type { ObjectView } from '../services/object-views.js';
import { expandObject } from './expand.js';
import { pageWithRelatedPipeline, splitFacet } from './pipeline.js';

/**
 * The Objects `head` selects, with relationships expanded `depth` levels, in one aggregation.
 * Related Objects come from the same view (status) and Bucket as the page.
 */
export async function fetchExpandedPage(view: ObjectView, bucket: BucketDoc, head: Document[], projection: Document | null, depth: number): Promise<ObjectDoc[]> {
  const pipeline = pageWithRelatedPipeline(head, {
    collection: view.coll.collectionName,
    match: { bucket_id: bucket._id, ...view.match },
    depth,
    projection,
  });
  const [result] = await view.coll.aggregate<Record<string, ObjectDoc[]>>(pipeline).toArray();
  const { page, related } = splitFacet(result);
  return page.map((doc) => expandObject(doc, related, depth));
}
