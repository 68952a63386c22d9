import type { Db } from 'mongodb';

/**
 * The server-side time limit (`maxTimeMS`) of every find, aggregate and count this service
 * runs, so one expensive query cannot hold an engine thread for ever. It is set per operation
 * rather than as the client's `timeoutMS`, which is deprecated in driver 7 and would also cut
 * GridFS streams (a 900 MB upload or download runs for minutes).
 *
 * The value is configuration (QUERY_TIMEOUT_MS) and travels in the database handle itself:
 * `withQueryTimeLimit` makes a handle of its own for whoever owns the setting (an app, the
 * server's workers), and every service reads it from the handle it is given. No module keeps
 * it, so two apps in one process can have two limits; a handle made without one (an admin
 * script's) runs without a limit.
 */
const QUERY_TIME_LIMIT = Symbol('query time limit in ms');

type LimitedDb = Db & { [QUERY_TIME_LIMIT]?: number };

/**
 * A handle on `db` whose reads carry `ms`; `db` is left as it was. A view of `db` rather than a
 * new Db on its client, so a handle that wraps its collections (the crash tests' write hooks)
 * keeps doing so underneath.
 */
export function withQueryTimeLimit(db: Db, ms: number): Db {
  // The server hands the app a handle it already limited: wrapping it again would put a second
  // proxy on every collection call of every request.
  if ((db as LimitedDb)[QUERY_TIME_LIMIT] === ms) return db;
  return new Proxy(db, {
    get(target, prop) {
      if (prop === QUERY_TIME_LIMIT) return ms;
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export interface ReadOptions {
  maxTimeMS?: number;
}

/** Options to pass to find/findOne/aggregate/countDocuments on `db`'s collections. */
export function readOptions(db: Db): ReadOptions {
  const ms = (db as LimitedDb)[QUERY_TIME_LIMIT];
  return ms === undefined || ms === 0 ? {} : { maxTimeMS: ms };
}
