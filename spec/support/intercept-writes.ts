import type { Collection, Db } from 'mongodb';

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
 * process there. Reads pass straight through.
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
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'collection') return (name: string) => intercept(target.collection(name));
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
