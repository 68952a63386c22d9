import type { Express } from 'express';
import { MongoClient, type Db } from 'mongodb';
import { createApp } from '../../lib/app.js';
import { loadConfig, type Config } from '../../lib/config.js';
import { ensureIndexes } from '../../lib/indexes.js';
import { serviceDb } from '../../lib/db/service-db.js';
import { createBucket, type IssuedKeys, type KeyChoice } from '../../lib/buckets/buckets.js';
import { DomainEvents, type DomainEvent, type EventDeps } from '../../lib/events/domain-events.js';
import { testEngine } from './test-engine.js';
import { PutOffWork, type ForRequest } from '../../lib/http/respond.js';

let client: MongoClient | null = null;

export async function closeSharedClient(): Promise<void> {
  await client?.close();
  client = null;
}

export interface Harness {
  app: Express;
  /**
   * The app's own handle: what the app learns of the servers (bulkWrite) is kept in it, shared by
   * services and apps given it, and tests force it with `assumeBulkWrite(h.db, …)`.
   */
  db: Db;
  /** With command monitoring on, so tests can count round trips. */
  client: MongoClient;
  config: Config;
  /** A Bucket with generated keys unless told otherwise. */
  bucket(slug: string, read?: KeyChoice, write?: KeyChoice): Promise<IssuedKeys>;
  /** Server-side errors the app logged; tests assert it stays empty. */
  errors: string[];
  /** The app's event seam with the database, for the scheduler and repair run beside the app (writes made outside any request). */
  writes: EventDeps & ForRequest;
  /** Every domain event the app (and `writes`) emitted, in order: a collecting sink. */
  emitted: DomainEvent[];
  /**
   * Resolves once the work the app's requests put off until after their answers has run (an
   * Object write clears its carried work then): for tests that read or crash what a request wrote.
   */
  settled(): Promise<void>;
}

/**
 * A freshly emptied database and an app over it: call once per test file, in before(). Another
 * `dbName` gives a second app on a second database of the same engine and client.
 */
export async function freshHarness(env: NodeJS.ProcessEnv = {}, dbName = 'content_api_test'): Promise<Harness> {
  if (!client) {
    client = new MongoClient(testEngine().uri, { serverSelectionTimeoutMS: 10_000, monitorCommands: true });
    await client.connect();
  }
  const config = loadConfig({ PUBLIC_URL: 'http://api.test', ...env });
  // Made as the app would make it, so the app takes it as its own (see `Harness.db`).
  const db = serviceDb(client.db(dbName), { queryTimeoutMs: config.queryTimeoutMs });
  await db.dropDatabase();
  await ensureIndexes(db);
  const errors: string[] = [];
  const events = new DomainEvents(config);
  const emitted: DomainEvent[] = [];
  events.addObserver((_db, event) => {
    emitted.push(event);
    return Promise.resolve();
  });
  const putOff = new PutOffWork((m) => errors.push(m));
  const app = createApp({ config, db, log: (m) => errors.push(m), events, putOff });
  return {
    app,
    db,
    client,
    config,
    errors,
    writes: { db, events, request: null },
    emitted,
    settled: () => putOff.idle(),
    bucket: (slug, read = { kind: 'generate' }, write = { kind: 'generate' }) => createBucket(db, slug, read, write),
  };
}
