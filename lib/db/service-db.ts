import type { Collection, CollectionOptions, Db } from 'mongodb';

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
  /** Whether the servers have the bulkWrite command across collections (`bulk-write-support.ts`); unset until asked. */
  bulkWrite?: Promise<boolean> | undefined;
}

export interface HandleSettings {
  /** The server-side time limit of reads (`query-time-limit.ts`); 0: none. */
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
