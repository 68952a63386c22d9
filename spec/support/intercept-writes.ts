import type { Admin, Collection, Db, Document } from 'mongodb';

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
 * process there. Reads pass straight through. A bulkWrite command (several collections in one
 * command) runs op by op, each after the hook: a crash at an op leaves those before it applied,
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
  /** What a bulkWrite op does, named as the collection method that would do it alone. */
  const opMethod = (op: Document): string => {
    if ('insert' in op) return 'insertOne';
    if ('delete' in op) return op.multi === true ? 'deleteMany' : 'deleteOne';
    const mods = op.updateMods as Document;
    return Object.keys(mods).some((k) => k.startsWith('$')) ? 'updateOne' : 'replaceOne';
  };
  /** The bulkWrite command (lib/db/plain-commands.ts) sent op by op, each after the hook, as ordered. */
  const bulkWriteCommand = async (admin: Admin, command: Document): Promise<Document> => {
    const ops = command.ops as Document[];
    const nsInfo = command.nsInfo as { ns: string }[];
    const results: Document[] = [];
    for (const [k, op] of ops.entries()) {
      const ns = nsInfo[Number(op.insert ?? op.update ?? op.delete)]?.ns ?? '';
      await before({ n: n++, collection: ns.slice(ns.indexOf('.') + 1), method: opMethod(op) });
      const reply = await admin.command({ ...command, ops: [op], cursor: { batchSize: 1 } });
      const [result] = (reply.cursor as { firstBatch: Document[] }).firstBatch;
      // Its index in the whole batch, as the server would report it.
      if (result) results.push({ ...result, idx: k });
      if (result?.ok !== 1) break;
    }
    return { ok: 1, cursor: { id: 0, firstBatch: results, ns: 'admin.$cmd.bulkWrite' } };
  };
  const interceptAdmin = (admin: Admin): Admin =>
    new Proxy(admin, {
      get(target, prop) {
        if (prop === 'command')
          return (command: Document, options?: Document) =>
            'bulkWrite' in command ? bulkWriteCommand(target, command) : target.command(command, options);
        const value: unknown = Reflect.get(target, prop);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'collection') return (name: string) => intercept(target.collection(name));
      // The bulkWrite command goes through the handle's Admin (lib/db/plain-commands.ts).
      if (prop === 'admin') return () => interceptAdmin(target.admin());
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
