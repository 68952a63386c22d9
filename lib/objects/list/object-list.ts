import { ObjectId, type AbstractCursor, type Db, type Document } from 'mongodb';
import type { ListOrders } from '../../cache/list-orders.js';
import { ListTotals } from '../../cache/list-totals.js';
import { orderState } from './list-generation.js';
import type { BucketDoc, ObjectDoc, ObjectTypeDoc } from '../../db/collections.js';
import { expandRelated } from '../populate/fetch-related.js';
import { metadataPaths } from '../../metafields/metadata-paths.js';
import { propsProjection } from '../../query/props.js';
import type { ParamValues } from '../../query/read-params.js';
import { compileFilter } from '../../query/translate-filter.js';
import type { ReadObject } from '../../render/objects.js';
import { afterCursorFilter } from '../../query/list-cursor.js';
import { objectListQuery, objectListSort, randomPageStages, type ObjectListQuery } from './object-list-query.js';
import { readOrderedPage } from './object-list-order.js';
import { listTotal } from './object-list-total.js';
import { scopedView, viewFor, type ObjectView } from '../object-views.js';
import { ByteBudget, readWithin, type ReadBounds } from '../../query/read-budget.js';
import type { PerClientLimit } from '../../http/per-client-limit.js';
import { admitRegexScan } from './regex-budget.js';

/** The list parameters, already read and validated as text and numbers (see query/read-params.ts). */
export type ListQuery = Pick<
  ParamValues,
  'query' | 'sort' | 'props' | 'status' | 'limit' | 'skip' | 'after' | 'depth'
> & {
  /** The only Object types the caller may see (lib/accounts/type-scope.ts), or null for all. */
  typeScope?: readonly string[] | null;
};

export interface ListResult {
  /** Projected to what `props` needs, when given. */
  docs: ReadObject[];
  total: number;
}

/** The page's documents: a sample of the matches for sort=random, else the sorted range. */
function pageCursor(view: ObjectView, query: ObjectListQuery, projection: Document | null): AbstractCursor<ObjectDoc> {
  if (query.sort.random) {
    const stages = randomPageStages(query);
    return view.coll.aggregate<ObjectDoc>(
      projection ? [...stages, { $project: projection }] : stages,
      view.readOptions,
    );
  }
  const cursor = view.coll
    .find(query.pageFilter, view.readOptions)
    .sort(query.sort.fields)
    .skip(query.skip)
    .limit(query.limit);
  return projection ? cursor.project<ObjectDoc>(projection) : cursor;
}

/** What lists keep per Bucket generation between reads, and the turns of costly searches (AppState holds them). */
export interface ListMemos {
  totals: ListTotals;
  orders: ListOrders;
  /** Lists with a `$regex` on `content` running per Bucket (regex-budget.ts). */
  regexReads?: PerClientLimit;
}

/**
 * One page of Objects and the count of all matches. The page is one indexed read within the
 * response cap, or, for a list read before at this Bucket generation, a slice of its kept order
 * read by `_id` (object-list-order.ts); with depth, each level of related Objects is one more
 * read by `_id` (see populate/fetch-related.ts). The total comes from `memos` when this Bucket
 * generation already counted the same filter, from the page when it is shorter than its limit,
 * or from a count.
 */
export async function listObjects(
  db: Db,
  bucket: BucketDoc,
  types: ReadonlyMap<string, ObjectTypeDoc>,
  q: ListQuery,
  bounds: ReadBounds,
  memos?: ListMemos,
): Promise<ListResult> {
  const translated = compileFilter(q.query, { metadataPaths: metadataPaths(types.values()) });
  const sort = objectListSort(q.sort, translated, types);
  const view = scopedView(viewFor(db, q.status), q.typeScope ?? null);
  const keyset = await afterCursorFilter({ ...view, what: 'Object' }, bucket, sort, q.after);
  const query = objectListQuery({
    bucketId: bucket._id,
    viewMatch: view.match,
    translated,
    sort,
    keyset,
    skip: q.skip,
    limit: q.limit,
    typeScope: q.typeScope ?? null,
  });
  const gate = memos?.regexReads && { limit: memos.regexReads, bucket: bucket._id.toHexString() };
  const release = await admitRegexScan(view, query.filter, bounds.regexScanBytes, gate);
  try {
    return await readList(db, bucket, types, q, bounds, memos, { view, query, sort, keyset });
  } finally {
    release();
  }
}

/** The page and total of a list whose query is built (listObjects). */
async function readList(
  db: Db,
  bucket: BucketDoc,
  types: ReadonlyMap<string, ObjectTypeDoc>,
  q: ListQuery,
  bounds: ReadBounds,
  memos: ListMemos | undefined,
  built: {
    view: ObjectView;
    query: ObjectListQuery;
    sort: ObjectListQuery['sort'];
    keyset: Awaited<ReturnType<typeof afterCursorFilter>>;
  },
): Promise<ListResult> {
  const { view, query, sort, keyset } = built;
  const projection = propsProjection(q.props);
  // Depth reads other types' Objects, but the total and order count this type's alone.
  const state = orderState(bucket, q.query, types);
  const listKey = ListTotals.listKey(bucket, view.coll.collectionName, query.filter);
  const totalKey = ListTotals.keyAt(listKey, state.generation);
  let budget = new ByteBudget(bounds.maxBytes);
  const ordered =
    memos && !sort.random
      ? await readOrderedPage(
          {
            db,
            view,
            bucket,
            query: { ...query, sort },
            projection,
            after: q.after === undefined ? undefined : new ObjectId(q.after),
            orders: memos.orders,
            totals: memos.totals,
            totalKey,
            listKey,
            state,
          },
          budget,
        )
      : undefined;
  if (ordered === undefined) budget = new ByteBudget(bounds.maxBytes);
  let docs: ReadObject[] = ordered?.docs ?? (await readWithin(pageCursor(view, query, projection), budget));
  // Props that leave metadata out show no relationship, so none is loaded.
  const depth = projection !== null && !('refs' in projection) ? 0 : q.depth;
  if (depth > 0) docs = await expandRelated(view, bucket, docs, depth, bounds, budget);
  const page = {
    length: docs.length,
    limit: query.limit,
    skip: query.sort.random ? 0 : query.skip,
    after: keyset !== null,
  };
  const total =
    ordered?.total ??
    (await listTotal(memos?.totals, totalKey, page, () => view.coll.countDocuments(query.filter, view.readOptions)));
  return { docs, total };
}
