import type { Document, ObjectId } from 'mongodb';
import { ListOrder, ListOrders } from '../../cache/list-orders.js';
import type { ListTotals } from '../../cache/list-totals.js';
import type { BucketDoc, ObjectDoc } from '../../db/collections.js';
import { relatedFilter } from '../populate/related.js';
import type { SortSpec } from '../../query/sort.js';
import type { ReadObject } from '../serialize.js';
import type { ObjectListQuery } from './object-list-query.js';
import type { ObjectView } from '../object-views.js';
import { readWithin, type ByteBudget } from '../../query/read-budget.js';

export interface OrderedPageArgs {
  view: ObjectView;
  bucket: BucketDoc;
  query: ObjectListQuery & { sort: SortSpec & { random: false } };
  projection: Document | null;
  /** The `after` cursor's Object, already checked to be in the Bucket. */
  after: ObjectId | undefined;
  orders: ListOrders;
  totals: ListTotals;
  /** The list's key in `totals` (ListTotals.key); with its sort, its key in `orders`. */
  totalKey: string;
}

/**
 * The list's order at this Bucket generation: kept, or read now (every match's id, in sort order,
 * from the same filter and indexed sort as a page) when the list was already read once at this
 * generation and is short enough to keep. A list read once per write pays no extra read.
 */
async function orderOf(a: OrderedPageArgs): Promise<ListOrder | undefined> {
  const { view, query } = a;
  const key = ListOrders.key(a.totalKey, query.sort);
  const kept = a.orders.get(key);
  if (kept !== undefined) return kept;
  // A list not read before at this generation has no total kept yet.
  const total = a.totals.get(a.totalKey);
  if (total === undefined || total > a.orders.maxIds) return undefined;
  const ids = await view.coll
    .find(query.filter, view.readOptions)
    .sort(query.sort.fields)
    .project<{ _id: ObjectId }>({ _id: 1 })
    .limit(a.orders.maxIds + 1)
    .toArray();
  if (ids.length > a.orders.maxIds) return undefined;
  const order = ListOrder.of(ids.map((d) => d._id));
  a.orders.set(key, order);
  return order;
}

/**
 * A page read through the list's kept order: the page's ids are a slice of it and its documents
 * one `_id $in` read, which the `_id` index serves on every engine, instead of matching and
 * sorting every candidate again. Bucket and view are checked on the documents read. Undefined
 * when no order is kept, the cursor's Object is not among the matches, or a document is missing
 * (then the caller reads the page from the filter, with a fresh budget).
 */
export async function readOrderedPage(
  a: OrderedPageArgs,
  budget: ByteBudget,
): Promise<{ docs: ReadObject[]; total: number } | undefined> {
  const order = await orderOf(a);
  if (order === undefined) return undefined;
  let from = a.query.skip;
  if (a.after !== undefined) {
    const at = order.indexOf(a.after);
    if (at < 0) return undefined;
    from += at + 1;
  }
  const ids = order.slice(from, a.query.limit);
  if (ids.length === 0) return { docs: [], total: order.length };
  const { view, bucket } = a;
  // The checks below need these two even when props leave them out; rendering shows only props.
  const projection = a.projection && { ...a.projection, bucket_id: 1, status: 1 };
  const cursor = view.coll.find(relatedFilter(bucket._id, ids), view.readOptions);
  const read = await readWithin(
    projection ? cursor.project<ObjectDoc>(projection) : cursor,
    budget,
    (doc) => doc.bucket_id.equals(bucket._id) && view.shows(doc),
  );
  const byId = new Map(read.map((d) => [d._id.toHexString(), d]));
  const docs = ids.map((id) => byId.get(id.toHexString())).filter((d): d is ObjectDoc => d !== undefined);
  return docs.length === ids.length ? { docs, total: order.length } : undefined;
}
