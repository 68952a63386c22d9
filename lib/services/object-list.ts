import type { Db, Document, Filter } from 'mongodb';
import type { BucketDoc, ObjectDoc, ObjectTypeDoc } from '../db/collections.js';
import { fetchExpandedPage } from '../populate/fetch-page.js';
import { metadataPaths } from '../query/metadata-paths.js';
import { propsProjection } from '../query/props.js';
import type { ParamValues } from '../query/read-params.js';
import { parseSort, type SortSpec } from '../query/sort.js';
import { compileFilter } from '../query/translate-filter.js';
import type { ReadObject } from '../serializers/object.js';
import { afterCursorFilter } from './list-cursor.js';
import { viewFor } from './object-views.js';
import { ByteBudget, readWithin, type ReadBounds } from './read-budget.js';

/** The list parameters, already read and validated as text and numbers (see query/read-params.ts). */
export type ListQuery = Pick<ParamValues, 'query' | 'sort' | 'props' | 'status' | 'limit' | 'skip' | 'after' | 'depth'>;

export interface ListResult {
  /** Projected to what `props` needs, when given. */
  docs: ReadObject[];
  total: number;
}

/** The type a (translated) filter pins with `type: "x"` or `type: {$eq: "x"}`: it decides the sortable keys. */
function queriedTypeSlug(raw: Record<string, unknown>): string | undefined {
  const t = raw.type;
  if (typeof t === 'string') return t;
  if (t && typeof t === 'object' && typeof (t as { $eq?: unknown }).$eq === 'string') return (t as { $eq: string }).$eq;
  return undefined;
}

function sortFor(q: ListQuery, filter: Record<string, unknown>, types: ReadonlyMap<string, ObjectTypeDoc>): SortSpec {
  const slug = queriedTypeSlug(filter);
  const type = slug === undefined ? undefined : types.get(slug);
  const sortableKeys = new Set((type?.metafields ?? []).filter((m) => m.sortable).map((m) => m.key));
  return parseSort(q.sort, { sortableKeys, allowed: 'objects' });
}

/**
 * One page of Objects and the count of all matches, run concurrently. With depth, the page and
 * every level of related Objects come from one aggregation (see populate/pipeline.ts); without,
 * the page is read within the response cap, batch by batch.
 */
export async function listObjects(
  db: Db,
  bucket: BucketDoc,
  types: ReadonlyMap<string, ObjectTypeDoc>,
  q: ListQuery,
  bounds: ReadBounds,
): Promise<ListResult> {
  const translated = compileFilter(q.query, { metadataPaths: metadataPaths(types.values()) });
  const sort = sortFor(q, translated, types);
  const view = viewFor(db, q.status);
  const base: Filter<ObjectDoc> = { bucket_id: bucket._id, ...view.match };
  const match: Filter<ObjectDoc> = Object.keys(translated).length ? { $and: [base, translated] } : base;
  const keyset = await afterCursorFilter({ ...view, what: 'Object' }, bucket, sort, q.after);
  const pageMatch = keyset ? { $and: [match, keyset] } : match;
  const projection = propsProjection(q.props);
  const objects = view.coll;
  const head: Document[] = sort.random
    ? [{ $match: pageMatch }, { $sample: { size: q.limit } }]
    : [{ $match: pageMatch }, { $sort: Object.fromEntries(sort.fields) }, { $skip: q.skip }, { $limit: q.limit }];

  // Props that leave metadata out show no relationship, so none is loaded.
  const depth = projection !== null && !('refs' in projection) ? 0 : q.depth;
  let pageQuery: Promise<ObjectDoc[]>;
  if (depth > 0) {
    pageQuery = fetchExpandedPage(view, bucket, head, projection, depth, bounds);
  } else if (sort.random) {
    const cursor = objects.aggregate<ObjectDoc>(
      projection ? [...head, { $project: projection }] : head,
      view.readOptions,
    );
    pageQuery = readWithin(cursor, new ByteBudget(bounds.maxBytes));
  } else {
    const cursor = objects.find(pageMatch, view.readOptions).sort(sort.fields).skip(q.skip).limit(q.limit);
    if (projection) cursor.project(projection);
    pageQuery = readWithin(cursor, new ByteBudget(bounds.maxBytes));
  }
  const [docs, total] = await Promise.all([pageQuery, objects.countDocuments(match, view.readOptions)]);
  return { docs, total };
}
