import type { Document } from 'mongodb';
import type { ObjectDoc } from '../db/collections.js';
import type { RelatedMap } from './expand.js';

/**
 * From a set of Objects to the Objects they reference: every id in their `refs`, once, looked
 * up by `_id` (an index lookup on any engine), then kept only if visible under `match`
 * (same Bucket, same status view as the page). The trailing `$limit` stops the lookups of a
 * level once `maxPerLevel` visible Objects are found (the stages after `$group` stream), so the
 * next level starts from a bounded set: a level that reaches the limit tells the caller the cap
 * is crossed, without the rest of the fan ever being fetched.
 */
export function nextLevelStages(collection: string, match: Document, maxPerLevel: number): Document[] {
  return [
    { $project: { refs: 1 } },
    { $unwind: '$refs' },
    { $group: { _id: '$refs' } },
    { $lookup: { from: collection, localField: '_id', foreignField: '_id', as: 'found' } },
    { $unwind: '$found' },
    { $replaceRoot: { newRoot: '$found' } },
    { $match: match },
    { $limit: maxPerLevel },
  ];
}

/**
 * One aggregation for a page and its relationships: `head` selects the page (match, sort,
 * skip, limit), then a $facet answers the page (projected by props) beside one branch per
 * depth level, so a page at depth d costs one round trip instead of d + 1.
 */
export function pageWithRelatedPipeline(
  head: Document[],
  opts: { collection: string; match: Document; depth: number; projection: Document | null; maxPerLevel: number },
): Document[] {
  const facet: Record<string, Document[]> = {
    page: opts.projection ? [{ $project: opts.projection }] : [{ $match: {} }],
  };
  let levelStages: Document[] = [];
  for (let level = 1; level <= opts.depth; level++) {
    levelStages = [...levelStages, ...nextLevelStages(opts.collection, opts.match, opts.maxPerLevel)];
    facet[`level${level}`] = levelStages;
  }
  return [...head, { $facet: facet }];
}

/** The facet's answer as the page and a map of every related Object it found. */
export function splitFacet(result: Record<string, ObjectDoc[]> | undefined): {
  page: ObjectDoc[];
  related: RelatedMap;
} {
  const related: RelatedMap = new Map();
  for (const [branch, docs] of Object.entries(result ?? {})) {
    if (branch === 'page') continue;
    for (const doc of docs) related.set(doc._id.toHexString(), doc);
  }
  return { page: result?.page ?? [], related };
}
