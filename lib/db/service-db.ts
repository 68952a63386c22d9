import type { Collection, CollectionOptions, Db } from 'mongodb';

// A service's database handle: what it carries (the read time limit, what its servers can do) and
// reading that back.

/**
 * The settings and capabilities of a database handle travel in the handle itself: `serviceDb`
 * makes a handle of its own for whoever owns them (an app, the server's workers, an admin
 * script), and every service reads them from the handle it is given. No module keeps them, so two
 * apps in one process can have two time limits, and a test can tell one app its servers lack a
 * command without telling every other app on the same client.
 */
const SETTINGS = Symbol('settings of this database handle');

/** What the owner of a handle learned of its servers, asked the first time a write needs it. */
export interface ServerCapabilities {
  /** Whether the servers have the bulkWrite command across collections (`hasBulkWrite`); unset until asked. */
  bulkWrite?: Promise<boolean> | undefined;
}

export interface HandleSettings {
  /** The server-side time limit of reads (`readOptions`); 0: none. */
  readonly queryTimeoutMs: number;
  readonly capabilities: ServerCapabilities;
}

type ServiceDb = Db & { [SETTINGS]?: HandleSettings };

/**
 * A handle on `db` carrying `queryTimeoutMs` (none by default) and capabilities of its own (those
 * of `db`, if it was made here); `db` is left as it was. A view of `db` rather than a new Db on its
 * client, so a handle that wraps its collections (the crash tests' write hooks) keeps doing so
 * underneath.
 */
export function serviceDb(db: Db, { queryTimeoutMs = 0 }: { queryTimeoutMs?: number } = {}): Db {
  const held = settingsOf(db);
  // The server hands the app a handle it already made: wrapping it again would put a second proxy
  // on every collection call of every request. The app then shares the workers' capabilities,
  // which are those of the same client.
  if (held?.queryTimeoutMs === queryTimeoutMs) return db;
  // A handle over one that has settings reaches the same servers: what was learned of them holds.
  const settings: HandleSettings = { queryTimeoutMs, capabilities: held?.capabilities ?? {} };
  // Every request asks the handle for a few collections, and the driver builds a Collection (its
  // options resolved anew) per call: one per name is kept, as the driver's docs advise. Methods are
  // bound once, not per call.
  const collections = new Map<string, Collection>();
  const bound = new Map<string | symbol, { of: unknown; fn: unknown }>();
  const collection = (name: string, options?: CollectionOptions): Collection => {
    if (options !== undefined) return db.collection(name, options);
    let coll = collections.get(name);
    if (!coll) {
      coll = db.collection(name);
      collections.set(name, coll);
    }
    return coll;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === SETTINGS) return settings;
      if (prop === 'collection') return collection;
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      let kept = bound.get(prop);
      if (kept?.of !== value) {
        kept = { of: value, fn: (value as (...args: unknown[]) => unknown).bind(target) };
        bound.set(prop, kept);
      }
      return kept.fn;
    },
  });
}

/** The settings `db` was made with by `serviceDb`; undefined for a driver's handle as it came. */
export function settingsOf(db: Db): HandleSettings | undefined {
  return (db as ServiceDb)[SETTINGS];
}

/**
 * The server-side time limit (`maxTimeMS`) of every find, aggregate and count this service
 * runs, so one expensive query cannot hold an engine thread for ever. It is set per operation
 * rather than as the client's `timeoutMS`, which is deprecated in driver 7 and would also cut
 * GridFS streams (a 900 MB upload or download runs for minutes).
 *
 * The value is configuration (QUERY_TIMEOUT_MS) and travels in the database handle itself: two apps in one process can have two limits; a handle made without one (an
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

/**
 * MongoDB 8.0's bulkWrite command writes to several collections in one command. Whether a
 * handle's servers have it is asked once per owner of the handle (buildInfo) and kept in the
 * handle's capabilities; a server that turns out not to know the command
 * (CommandNotFound) sends that owner back to one command per write.
 */
const FIRST_VERSION_WITH_BULK_WRITE = 8;

/**
 * Whether `db`'s servers have bulkWrite. A driver's handle as it came (a test's, a one-off
 * script's) has nowhere to keep the answer, and asking on every write would add a command to
 * each: it gets one command per write, which is correct on every server, only slower. Every entry
 * point that writes much (the app, the server's workers, bucketctl, the test harness) makes its
 * handle with `serviceDb`.
 */
export function hasBulkWrite(db: Db): Promise<boolean> {
  const capabilities = settingsOf(db)?.capabilities;
  if (!capabilities) return Promise.resolve(false);
  capabilities.bulkWrite ??= db
    .admin()
    .command({ buildInfo: 1 })
    .then((info) => Array.isArray(info.versionArray) && Number(info.versionArray[0]) >= FIRST_VERSION_WITH_BULK_WRITE)
    .catch(() => false);
  return capabilities.bulkWrite;
}

/** A server said it has bulkWrite but had not (a proxy, a mixed-version cluster): `db`'s owner sends writes apart from now on. */
export function lacksBulkWrite(db: Db): void {
  const capabilities = settingsOf(db)?.capabilities;
  if (capabilities) capabilities.bulkWrite = Promise.resolve(false);
}

/**
 * Says whether the servers of `db` (a handle made by `serviceDb`, and every handle sharing its
 * capabilities) have bulkWrite, instead of asking them (undefined: ask again). For a deployment
 * whose version answer is not to be trusted (a proxy), and for tests of the path without the command.
 */
export function assumeBulkWrite(db: Db, available: boolean | undefined): void {
  const capabilities = settingsOf(db)?.capabilities;
  // A driver's handle never uses bulkWrite: saying otherwise of it would be silently ignored.
  if (!capabilities) throw new Error('assumeBulkWrite needs a handle made by serviceDb');
  capabilities.bulkWrite = available === undefined ? undefined : Promise.resolve(available);
}
