import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import type { ObjectView } from '../services/object-views.js';
import { pendingRefs, type RelatedMap } from './expand.js';

/**
 * Loads the Objects reachable from `roots` within `depth` levels: one `$in` query per level
 * over every id the level references, so a page resolves in `depth` round trips however many
 * Objects it holds. Related Objects come from the same view (status) as the page.
 */
export async function fetchRelated(view: ObjectView, bucket: BucketDoc, roots: ObjectDoc[], depth: number): Promise<RelatedMap> {
  // Roots are not seeded: they may be projected by props, and a related Object is always whole.
  const related: RelatedMap = new Map();
  let frontier: ObjectDoc[] = roots;
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const ids = pendingRefs(frontier, related);
    if (ids.length === 0) break;
    const found = await view.coll.find({ _id: { $in: ids }, bucket_id: bucket._id, ...view.match }).toArray();
    for (const id of ids) related.set(id.toHexString(), null);
    for (const doc of found) related.set(doc._id.toHexString(), doc);
    frontier = found;
  }
  return related;
}
