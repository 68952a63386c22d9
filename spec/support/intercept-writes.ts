import {
  MongoClientBulkWriteError,
  type AnyClientBulkWriteModel,
  type ClientBulkWriteOptions,
  type ClientBulkWriteResult,
  type ClientDeleteResult,
  type ClientInsertOneResult,
  type ClientUpdateResult,
  type Collection,
  type Db,
  type Document,
  type MongoClient,
} from 'mongodb';

const WRITE_METHODS = new Set([
  'insertOne',
  'insertMany',
  'replaceOne',
  'updateOne',
  'updateMany',
  'deleteOne',
  'deleteMany',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
  'bulkWrite',
]);

export interface WriteCall {
  /** 0 for the first write made through this Db, 1 for the next, … */
  n: number;
  collection: string;
  method: string;
}

/** Thrown from a hook: the process dies just before that write, so neither it nor anything after it happens. */
export class Crash extends Error {}

/**
 * `db` with a hook that runs before every write made through it. Throwing `Crash` from the hook
 * stands for the process dying at that point; awaiting other work in it interleaves a second
 * process there. Reads pass straight through. A bulkWrite of the client (several collections in
 * one command) runs op by op, each after the hook: a crash at an op leaves those before it applied,
 * as a server that died mid-command would, and other work can come between two ops, as on a server.
 */
export function interceptWrites(db: Db, before: (call: WriteCall) => void | Promise<void>): Db {
  let n = 0;
  const intercept = (coll: Collection): Collection =>
    new Proxy(coll, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop);
        if (typeof value !== 'function') return value;
        // The driver's methods rely on `this` being the real collection.
        const method = (value as (...args: unknown[]) => unknown).bind(target);
        if (typeof prop !== 'string' || !WRITE_METHODS.has(prop)) return method;
        return async (...args: unknown[]) => {
          await before({ n: n++, collection: target.collectionName, method: prop });
          return method(...args);
        };
      },
    });
  const bulkWrite =
    (client: MongoClient) => async (models: AnyClientBulkWriteModel<Document>[], options?: ClientBulkWriteOptions) => {
      const result = emptyResult();
      for (const [k, model] of models.entries()) {
        await before({
          n: n++,
          collection: model.namespace.slice(model.namespace.indexOf('.') + 1),
          method: model.name,
        });
        try {
          addResult(result, await client.bulkWrite([model], { ...options, verboseResults: true }), k);
        } catch (err) {
          // Its index in the whole batch, as the server would report it.
          if (err instanceof MongoClientBulkWriteError) {
            err.writeErrors = new Map([...err.writeErrors].map(([i, e]) => [i + k, e]));
          }
          throw err;
        }
      }
      return result;
    };
  const interceptClient = (client: MongoClient): MongoClient =>
    new Proxy(client, {
      get(target, prop) {
        if (prop === 'bulkWrite') return bulkWrite(target);
        const value: unknown = Reflect.get(target, prop);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  const client = interceptClient(db.client);
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'collection') return (name: string) => intercept(target.collection(name));
      if (prop === 'client') return client;
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A verbose bulkWrite result, built op by op. */
interface VerboseResult {
  acknowledged: boolean;
  insertedCount: number;
  upsertedCount: number;
  matchedCount: number;
  modifiedCount: number;
  deletedCount: number;
  insertResults: Map<number, ClientInsertOneResult>;
  updateResults: Map<number, ClientUpdateResult>;
  deleteResults: Map<number, ClientDeleteResult>;
}

function emptyResult(): VerboseResult {
  return {
    acknowledged: true,
    insertedCount: 0,
    upsertedCount: 0,
    matchedCount: 0,
    modifiedCount: 0,
    deletedCount: 0,
    insertResults: new Map(),
    updateResults: new Map(),
    deleteResults: new Map(),
  };
}

/** `one` (the result of a batch of one op) into `all`, as the op at index `k`. */
function addResult(all: VerboseResult, one: ClientBulkWriteResult, k: number): void {
  all.insertedCount += one.insertedCount;
  all.upsertedCount += one.upsertedCount;
  all.matchedCount += one.matchedCount;
  all.modifiedCount += one.modifiedCount;
  all.deletedCount += one.deletedCount;
  const inserted = one.insertResults?.get(0);
  if (inserted) all.insertResults.set(k, inserted);
  const updated = one.updateResults?.get(0);
  if (updated) all.updateResults.set(k, updated);
  const deleted = one.deleteResults?.get(0);
  if (deleted) all.deleteResults.set(k, deleted);
}
