import type { BucketDoc, ObjectDoc } from '../../db/collections.js';
import { RelatedObjectsCapError, ResponseTooLargeError } from '../../errors/domain-limits.js';
import { MIN_RENDERED_OBJECT_BYTES } from '../../render/objects.js';
import type { ObjectView } from '../object-views.js';
import { readWithin, type ByteBudget, type ReadBounds } from '../../query/read-budget.js';
import { expandPage, type RelatedMap } from './expand.js';
import { chunks, idsToLookUp, relatedFilter } from './related.js';

/** A page document as `props` projected it: `_id` always, `refs` whenever relationships are shown. */
type PageDoc = Pick<ObjectDoc, '_id'> & Partial<ObjectDoc>;

/**
 * Every Object the page reaches within `depth` levels of relationships, by hex id (null: looked
 * up, and missing or not visible). One read per level, `{_id: {$in}}` over the ids the level
 * before referenced and no earlier level looked up; a related Object is visible when it belongs
 * to the page's Bucket and view (status), checked on the documents read.
 *
 * The work is bounded as it goes: a read asks for at most `maxRelated + 1` ids, and the reads
 * stop, refused, as soon as more than `maxRelated` visible Objects are found; every visible
 * Object counts its stored bytes against `budget`, which already holds the page's.
 */
export async function fetchRelated(
  view: ObjectView,
  bucket: BucketDoc,
  page: readonly PageDoc[],
  depth: number,
  bounds: ReadBounds,
  budget: ByteBudget,
): Promise<RelatedMap> {
  const related: RelatedMap = new Map();
  let visibleCount = 0;
  const visible = (doc: ObjectDoc): boolean => {
    if (!doc.bucket_id.equals(bucket._id) || !view.shows(doc)) return false;
    visibleCount += 1;
    if (visibleCount > bounds.maxRelated) throw new RelatedObjectsCapError(bounds.maxRelated);
    return true;
  };
  let level: readonly Partial<ObjectDoc>[] = page;
  for (let d = 1; d <= depth; d++) {
    const ids = idsToLookUp(level, related);
    if (ids.length === 0) break;
    const found: ObjectDoc[] = [];
    for (const chunk of chunks(ids, bounds.maxRelated + 1)) {
      for (const id of chunk) related.set(id.toHexString(), null);
      const docs = await readWithin(
        view.coll.find(relatedFilter(bucket._id, chunk), view.readOptions),
        budget,
        visible,
      );
      for (const doc of docs) related.set(doc._id.toHexString(), doc);
      found.push(...docs);
    }
    level = found;
  }
  return related;
}

/**
 * The page with relationships expanded `depth` levels (see fetchRelated and expand.ts). Each
 * reference to a related Object writes a copy of it into the response, so expansion stops once
 * the references it would write out could not fit in the response cap.
 */
export async function expandRelated<D extends PageDoc>(
  view: ObjectView,
  bucket: BucketDoc,
  page: readonly D[],
  depth: number,
  bounds: ReadBounds,
  budget: ByteBudget,
): Promise<D[]> {
  const related = await fetchRelated(view, bucket, page, depth, bounds, budget);
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
