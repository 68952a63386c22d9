import { MongoServerError, type Document } from 'mongodb';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { RelatedObjectsCapError, ResponseTooLargeError } from '../errors/domain-limits.js';
import { MIN_RENDERED_OBJECT_BYTES } from '../serializers/object.js';
import type { ObjectView } from '../services/object-views.js';
import { ByteBudget, type ReadBounds } from '../services/read-budget.js';
import { expandPage } from './expand.js';
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
 *
 * The work is bounded before and while loading, as the facet answers in one document and cannot
 * be streamed: each level looks up at most `maxRelated + 1` Objects (the pipeline's per-level
 * $limit), so the fan of the next level starts from a bounded set; the answer is one document,
 * which MongoDB holds to 16 MB; then the distinct related Objects are checked against the cap and
 * the stored bytes of the page and its related Objects against the response cap, before
 * anything is expanded; expansion itself stops once the references it would write out could not
 * fit in the response.
 */
export async function fetchExpandedPage(
  view: ObjectView,
  bucket: BucketDoc,
  head: Document[],
  projection: Document | null,
  depth: number,
  bounds: ReadBounds,
): Promise<ObjectDoc[]> {
  const pipeline = pageWithRelatedPipeline(head, {
    collection: view.coll.collectionName,
    match: { bucket_id: bucket._id, ...view.match },
    depth,
    projection,
    maxPerLevel: bounds.maxRelated + 1,
  });
  let result: Record<string, ObjectDoc[]> | undefined;
  try {
    [result] = await view.coll.aggregate<Record<string, ObjectDoc[]>>(pipeline, view.readOptions).toArray();
  } catch (err) {
    if (isDocumentTooLarge(err)) {
      throw new ResponseTooLargeError(bounds.maxBytes, 'the page and its related Objects exceed 16 MB');
    }
    throw err;
  }
  const { page, related } = splitFacet(result);
  if (related.size > bounds.maxRelated) throw new RelatedObjectsCapError(bounds.maxRelated);
  const budget = new ByteBudget(bounds.maxBytes);
  for (const doc of [...page, ...related.values()]) if (doc) budget.add(doc);
  // Each reference to a related Object writes a copy of it into the response.
  const maxOccurrences = Math.floor(bounds.maxBytes / MIN_RENDERED_OBJECT_BYTES);
  return expandPage(page, related, depth, {
    max: maxOccurrences,
    error: () =>
      new ResponseTooLargeError(
        bounds.maxBytes,
        `more than ${maxOccurrences} related Objects to write out, at least ${MIN_RENDERED_OBJECT_BYTES} bytes each`,
      ),
  });
}
