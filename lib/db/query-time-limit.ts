import type { Db } from 'mongodb';
import { settingsOf } from './service-db.js';

/**
 * The server-side time limit (`maxTimeMS`) of every find, aggregate and count this service
 * runs, so one expensive query cannot hold an engine thread for ever. It is set per operation
 * rather than as the client's `timeoutMS`, which is deprecated in driver 7 and would also cut
 * GridFS streams (a 900 MB upload or download runs for minutes).
 *
 * The value is configuration (QUERY_TIMEOUT_MS) and travels in the database handle itself
 * (`service-db.ts`): two apps in one process can have two limits; a handle made without one (an
 * admin script's) runs without a limit.
 */
export interface ReadOptions {
  maxTimeMS?: number;
}

/** Options to pass to find/findOne/aggregate/countDocuments on `db`'s collections. */
export function readOptions(db: Db): ReadOptions {
  const ms = settingsOf(db)?.queryTimeoutMs;
  return ms === undefined || ms === 0 ? {} : { maxTimeMS: ms };
}
