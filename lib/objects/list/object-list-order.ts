import type { Db, Document, ObjectId } from 'mongodb';
import {
  ListOrder,
  ListOrders,
  lastNoted,
  notedCounts,
  packIds,
  type KeptOrder,
  type NotesKind,
  type NotesRead,
} from '../../cache/list-orders.js';
import { sortProjection } from '../../cache/sort-keys.js';
import { RECENT_WRITES_KEPT, recentWrites } from '../../cache/bucket-generation.js';
import { WRITE_NOTE_PARTS, WRITE_NOTES_KEPT, readWriteNotes } from '../../cache/bucket-generation.js';
import type { OrderState } from './list-generation.js';
import type { ListTotals } from '../../cache/list-totals.js';
import type { BucketDoc, ObjectDoc } from '../../db/collections.js';
import { relatedFilter } from '../populate/related.js';
import type { SortSpec } from '../../query/sort.js';
import type { ReadObject } from '../../render/objects.js';
import { writtenMatchFilter, type ObjectListQuery } from './object-list-query.js';
import type { ObjectView } from '../object-views.js';
import { readWithin, type ByteBudget } from '../../query/read-budget.js';

export interface OrderedPageArgs {
  db: Db;
  view: ObjectView;
  bucket: BucketDoc;
  query: ObjectListQuery & { sort: SortSpec & { random: false } };
  projection: Document | null;
  /** The `after` cursor's Object, already checked to be in the Bucket. */
  after: ObjectId | undefined;
  orders: ListOrders;
  totals: ListTotals;
  /** The list's key in `totals` (ListTotals.keyAt), which names its generation. */
  totalKey: string;
  /** The list's key without generation (ListTotals.listKey): with its sort, its key in `orders`. */
  listKey: string;
  /** The Bucket's state the request read. */
  state: OrderState;
}

/**
 * The list's order at this request's state of the Bucket: kept; or kept at an earlier state from
 * which only version writes of the list's type came, and followed (each written Object read again
 * and moved); or read now (every match's id and sort values, in sort order, from the same filter
 * and indexed sort as a page) when the list was read before and is short enough to keep. A list
 * read once pays no extra read; one read again, even after every write, keeps its order from then on.
 */
async function orderOf(a: OrderedPageArgs): Promise<ListOrder | undefined> {
  // LIST_ORDER_MAX_IDS=0: no list keeps an order, so none is looked up, followed or read.
  if (a.orders.maxIds === 0) return undefined;
  const { query, state } = a;
  const key = ListOrders.key(a.listKey, query.sort);
  const kept = a.orders.get(key);
  if (kept?.generation === state.generation) return kept.order;
  // Readers of a list at a state it has no order for yet (all of them, just after a write) wait
  // for one follow or read of it, not one each.
  return a.orders.shared(key, state.generation, () => orderAt(a, key, kept));
}

/** The list's order at the request's state, followed from `kept` or read now. */
async function orderAt(a: OrderedPageArgs, key: string, kept: KeptOrder | undefined): Promise<ListOrder | undefined> {
  const { view, query, state } = a;
  const followed = kept && (await follow(a, kept));
  if (followed) {
    a.orders.set(key, { ...state, ...followed });
    return followed.order;
  }
  const before = a.orders.noteRead(key);
  // The total, when this generation counted it, says whether the order is short enough to keep;
  // else whether an earlier read found it too long.
  const total = a.totals.get(a.totalKey);
  if (total === undefined ? before !== 'read' : total > a.orders.maxIds) return undefined;
  // Any count of the write notes read before the order is: Objects written after it are noted
  // after. The first order of a type an app keeps reads one; the others use the last read.
  const notesAt =
    state.type === null
      ? undefined
      : notedCounts(a.orders.notes('own', a.bucket._id, state.type) ?? (await readNotes(a, state.type, 0)));
  const docs = await view.coll
    .find(query.filter, view.readOptions)
    .sort(query.sort.fields)
    .project(sortProjection(query.sort.fields))
    .limit(a.orders.maxIds + 1)
    .toArray();
  if (docs.length > a.orders.maxIds) {
    a.orders.noteTooLong(key);
    return undefined;
  }
  const order = ListOrder.of(docs, query.sort.fields);
  a.orders.set(key, { ...state, order, notesAt });
  return order;
}

/**
 * `kept` brought to the request's state, when only version writes of the list's one type came
 * since it was kept: the Objects they wrote, as their notes say, are read again (by `_id`, with
 * the list's filter, so only those that match now come back) and moved. Each write bumps the
 * generation after its views hold the new version (lib/objects/write/version-write.ts), so what is read
 * is never older than the generation says; the notes are read after the Bucket, so they may name
 * later writes too, which are then taken in early (and again when the generation reaches them).
 * Writes sent one command at a time are noted on the Bucket, by a count that moves with the
 * generation; those sent as one bulkWrite in documents of their own, each noted before its bump,
 * and all those noted after the order's `notesAt` are read again.
 */
async function follow(a: OrderedPageArgs, kept: KeptOrder): Promise<Pick<KeptOrder, 'order' | 'notesAt'> | undefined> {
  const { state } = a;
  if (state.type === null || kept.type !== state.type || kept.bucketGeneration !== state.bucketGeneration) return;
  const behind = state.typeGeneration - kept.typeGeneration;
  if (!kept.order.followable || behind <= 0) return;
  const onBucket = state.writeCount - kept.writeCount;
  if (onBucket === behind && behind <= RECENT_WRITES_KEPT) return followBucketNotes(a, kept, state.type, behind);
  if (onBucket === 0 && kept.notesAt !== undefined) return followOwnNotes(a, kept, state.type, behind, kept.notesAt);
  return undefined;
}

/** `kept` after `behind` writes, every one noted on the Bucket (sent one command at a time). */
async function followBucketNotes(a: OrderedPageArgs, kept: KeptOrder, type: string, behind: number) {
  const notes = a.orders.notes('bucket', a.bucket._id, type, a.state.writeCount) ?? (await readBucketNotes(a, type));
  const since = (notes.parts[0]?.count ?? 0) - kept.writeCount;
  if (since < behind) return undefined;
  const order = await moved(a, kept, lastNoted(notes, [since]));
  return order && { order, notesAt: kept.notesAt };
}

/**
 * `kept` after `behind` writes, each noted in the type's own notes after the counts `notesAt`.
 * Notes not read at this state, or read short of what a part noted since, are read again: first
 * the last few ids of each part, then, when those fall short, all of them.
 */
async function followOwnNotes(
  a: OrderedPageArgs,
  kept: KeptOrder,
  type: string,
  behind: number,
  notesAt: readonly number[],
) {
  const since = (notes: NotesRead) => {
    const counts = notedCounts(notes);
    return {
      counts,
      written: lastNoted(
        notes,
        counts.map((count, part) => count - (notesAt[part] ?? Infinity)),
      ),
    };
  };
  const tail = Math.min(WRITE_NOTES_KEPT, NOTES_TAIL_SLACK + 2 * Math.ceil(behind / WRITE_NOTE_PARTS));
  let notes = a.orders.notes('own', a.bucket._id, type, a.state.typeGeneration);
  let found = notes && since(notes);
  for (const depth of [tail, WRITE_NOTES_KEPT]) {
    if (found?.written || (notes && notes.tail >= depth)) continue;
    notes = await readNotes(a, type, depth);
    found = since(notes);
  }
  const order = await moved(a, kept, found?.written);
  return order && found && { order, notesAt: found.counts };
}

/** Of each part's ids, how many more than its share of the writes behind a follow reads first. */
const NOTES_TAIL_SLACK = 8;

/** `kept`'s order after the writes of the Objects `written`; undefined when the notes did not reach back far enough to say. */
async function moved(a: OrderedPageArgs, kept: KeptOrder, written: ObjectId[] | undefined) {
  if (!written) return undefined;
  // None since: the writes the generation counts were noted before the order was read, and it holds them.
  if (written.length === 0) return kept.order;
  const { view, query, bucket } = a;
  const matching = await view.coll
    .find(writtenMatchFilter(bucket._id, written, query.filter), view.readOptions)
    .project(sortProjection(query.sort.fields))
    .toArray();
  const order = kept.order.moved(written, matching, query.sort.fields);
  return order && order.length <= a.orders.maxIds ? order : undefined;
}

/** The type's writes noted on the Bucket, read now (they reach at least as far as the Bucket the request read), and kept. */
async function readBucketNotes(a: OrderedPageArgs, type: string) {
  const read = await recentWrites(a.db, a.bucket._id, type);
  return keepRead(a, 'bucket', type, { reach: read.count, tail: RECENT_WRITES_KEPT }, [read]);
}

/**
 * The type's own write notes, of each part the count and the last `tail` ids, read now (after the
 * Bucket the request read, so they reach its generation), and kept.
 */
async function readNotes(a: OrderedPageArgs, type: string, tail: number) {
  const read = await readWriteNotes(a.db, a.bucket._id, type, tail);
  return keepRead(a, 'own', type, { reach: a.state.typeGeneration, tail }, read);
}

/** Notes just read, their ids packed, kept for the lists that follow the same writes. */
function keepRead(
  a: OrderedPageArgs,
  kind: NotesKind,
  type: string,
  read: Omit<NotesRead, 'parts'>,
  parts: readonly { ids: readonly ObjectId[]; count: number }[],
): NotesRead {
  const notes = { ...read, parts: parts.map((part) => ({ ids: packIds(part.ids), count: part.count })) };
  a.orders.keepNotes(kind, a.bucket._id, type, notes);
  return notes;
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
