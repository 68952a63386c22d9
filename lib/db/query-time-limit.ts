import type { Db } from 'mongodb';

/**
 * The server-side time limit (`maxTimeMS`) of every find, aggregate and count this service
 * runs, so one expensive query cannot hold an engine thread for ever. It is set per operation
 * rather than as the client's `timeoutMS`, which is deprecated in driver 7 and would also cut
 * GridFS streams (a 900 MB upload or download runs for minutes).
 *
 * The value is configuration (QUERY_TIMEOUT_MS), registered by createApp for the database
 * handle it serves, because that handle is what every service is given. A handle nobody
 * registered (an admin script's) runs without a limit.
 */
const limits = new WeakMap<Db, number>();

export function setQueryTimeLimit(db: Db, ms: number): void {
  limits.set(db, ms);
}

export interface ReadOptions {
  maxTimeMS?: number;
}

/** Options to pass to find/findOne/aggregate/countDocuments on `db`'s collections. */
export function readOptions(db: Db): ReadOptions {
  const ms = limits.get(db);
  return ms === undefined || ms === 0 ? {} : { maxTimeMS: ms };
}
