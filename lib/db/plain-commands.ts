// The write path's two commands sent as plain commands, without the driver's helpers around them:
// the multi-collection bulkWrite and the one-batch find of a single document.
import {
  Long,
  MongoServerError,
  ObjectId,
  type ClientDeleteManyModel,
  type ClientDeleteOneModel,
  type ClientInsertOneModel,
  type ClientReplaceOneModel,
  type ClientUpdateOneModel,
  type Document,
  type MongoClient,
  type WriteConcern,
  type Collection,
  type Db,
  type Filter,
  type WithId,
} from 'mongodb';
import type { ReadOptions } from './service-db.js';

type Unnamespaced<M> = M extends unknown ? Omit<M, 'namespace'> : never;
/** Any stored document, whatever its `_id` (the driver's Document would make it an ObjectId). */
export type Stored = Document & { _id?: ObjectId | string | number };

/** The writes a batch carries (what the service's follow-ups need). */
export type WriteModel = Unnamespaced<
  | ClientInsertOneModel<Stored>
  | ClientUpdateOneModel<Stored>
  | ClientReplaceOneModel<Stored>
  | ClientDeleteOneModel<Stored>
  | ClientDeleteManyModel<Stored>
>;

/** One write of a bulkWrite command: what to do, and to which namespace ("db.collection"). */
export interface NamespacedWrite {
  namespace: string;
  model: WriteModel;
}

/** How one ordered bulkWrite command went: the write it stopped at, if any, and the last write's matched count. */
export interface BulkWriteOutcome {
  failed?: { index: number; code: number; message: string };
  /** Matched (updates) or deleted (deletes) by the last write; 1 for an insert. Only when none failed. */
  lastMatched: number;
}

/** A result document of the command's cursor: one per write applied, and one for the write it stopped at. */
interface OpResult {
  ok: number;
  idx: number;
  n?: number;
  code?: number;
  errmsg?: string;
  upserted?: Document;
}

/** Whether a cursor id names a cursor the server still holds (0: none; a Long or a number). */
function cursorOpen(id: unknown): boolean {
  if (id instanceof Long) return !id.isZero();
  return typeof id === 'number' || typeof id === 'bigint' ? id !== 0 && id !== 0n : false;
}

/** A write as the bulkWrite command takes it, `ns` its index in nsInfo. */
function commandOp(ns: number, model: WriteModel): Document {
  switch (model.name) {
    case 'insertOne':
      // As the driver does: the id is set here, so a batch sent again inserts the same document.
      model.document._id ??= new ObjectId();
      return { insert: ns, document: model.document };
    case 'updateOne':
    case 'replaceOne':
      return {
        update: ns,
        filter: model.filter,
        updateMods: model.name === 'updateOne' ? model.update : model.replacement,
        upsert: model.upsert ?? false,
        multi: false,
      };
    case 'deleteOne':
      return { delete: ns, filter: model.filter, multi: false };
    case 'deleteMany':
      return { delete: ns, filter: model.filter, multi: true };
  }
}

/** The client's write concern as a command carries it (none: the server's default). */
function writeConcernOf(client: MongoClient): Document {
  // Typed as always set, but absent where the client was given none.
  const wc = client.options.writeConcern as WriteConcern | undefined;
  if (!wc) return {};
  const doc: Document = {
    ...(wc.w !== undefined && { w: wc.w }),
    ...(wc.wtimeoutMS !== undefined && { wtimeout: wc.wtimeoutMS }),
    ...(wc.journal !== undefined && { j: wc.journal }),
  };
  return Object.keys(doc).length > 0 ? { writeConcern: doc } : {};
}

/**
 * MongoDB 8.0's bulkWrite command (writes to several collections, in order, in one command), sent
 * as a plain command rather than through the driver's client bulkWrite: the write path sends one
 * per edit, and the driver's builder, results merger and results cursor cost about a tenth of an
 * edit's CPU. The results come back in the command's own first batch (its size asked to fit
 * them); a server that keeps some back is asked for them. Not retried by the driver on a network
 * error: the writes it sends are each safe to send again, and the write path's repair finishes
 * work a failed command left (lib/objects/write/version-write.ts).
 */
export async function bulkWriteCommand(db: Db, batch: readonly NamespacedWrite[]): Promise<BulkWriteOutcome> {
  const nsInfo: { ns: string }[] = [];
  const nsIndex = new Map<string, number>();
  const ops = batch.map(({ namespace, model }) => {
    let ns = nsIndex.get(namespace);
    if (ns === undefined) {
      ns = nsInfo.push({ ns: namespace }) - 1;
      nsIndex.set(namespace, ns);
    }
    return commandOp(ns, model);
  });
  // The command runs on the admin database. Through an Admin handle, not client.db('admin'): a new
  // Db resolves and copies every client option, a thirtieth of an edit's CPU.
  const admin = db.admin();
  const reply = await admin.command({
    bulkWrite: 1,
    ops,
    nsInfo,
    ordered: true,
    errorsOnly: false,
    cursor: { batchSize: ops.length },
    ...writeConcernOf(db.client),
  });
  const concern = reply.writeConcernError as { code?: number; errmsg?: string } | undefined;
  if (concern) {
    const message = concern.errmsg ?? 'write concern error';
    throw new MongoServerError({ message, errmsg: message, code: concern.code ?? 64 });
  }
  const cursor = reply.cursor as { id: unknown; firstBatch: OpResult[] };
  const results = [...cursor.firstBatch];
  let id = cursor.id;
  while (cursorOpen(id)) {
    const more = await admin.command({ getMore: id, collection: '$cmd.bulkWrite' });
    const next = more.cursor as { id: unknown; nextBatch: OpResult[] };
    results.push(...next.nextBatch);
    id = next.id;
  }
  const failed = results.find((r) => r.ok !== 1);
  if (failed) {
    const message = failed.errmsg ?? 'write failed';
    return { failed: { index: failed.idx, code: failed.code ?? 0, message }, lastMatched: 0 };
  }
  const last = results.find((r) => r.idx === ops.length - 1);
  // An upsert that inserted matched nothing.
  return { lastMatched: last?.upserted ? 0 : (last?.n ?? 1) };
}

/**
 * The first document `filter` finds in `coll` (by the server's natural order), read with a plain
 * find command of one batch: the hot reads (the Object an edit starts from, one Object by id)
 * want one document by a unique key, and the driver's findOne builds a cursor and closes it for
 * that, about a twelfth of an edit's CPU. Reads the primary, as a write's read must.
 */
export async function findOneByCommand<T extends Document>(
  db: Db,
  coll: Collection<T>,
  filter: Filter<T>,
  options: ReadOptions = {},
): Promise<WithId<T> | null> {
  const reply = await db.command({
    find: coll.collectionName,
    filter,
    limit: 1,
    singleBatch: true,
    batchSize: 1,
    ...(options.maxTimeMS !== undefined && { maxTimeMS: options.maxTimeMS }),
  });
  const [doc] = (reply.cursor as { firstBatch: WithId<T>[] }).firstBatch;
  return doc ?? null;
}
