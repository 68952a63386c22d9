import { MongoClient, type Db } from 'mongodb';
import { DbHealth } from './db-health.js';

export interface Database {
  client: MongoClient;
  db: Db;
  /** Whether the database is reachable now (for quick 503s while it is not). */
  health: DbHealth;
  close(): Promise<void>;
}

/** `monitorCommands`: emit the driver's command events (per-command metrics, METRICS_ENGINE_COMMANDS). */
export async function connectDatabase(
  uri: string,
  dbName: string,
  { monitorCommands = false }: { monitorCommands?: boolean } = {},
): Promise<Database> {
  const client = new MongoClient(uri, {
    // While no server is reachable, an operation waits this long for one, then fails. 5 s covers
    // a restart of the embedded engine after a crash (about 1-2 s: 0.5 s back-off plus the JVM's
    // start), so requests made meanwhile still succeed, yet a request to a database that stays
    // gone fails while its client is still waiting, rather than after 10 s (before) or 30 s (the
    // driver's default).
    serverSelectionTimeoutMS: 5_000,
    // The monitor checks the server every 2 s (default 10 s), so DbHealth notices a dead or
    // returned server within about 2 s: one tiny hello per 2 s.
    heartbeatFrequencyMS: 2_000,
    // Connecting, and the monitor's check of a server that accepts connections but does not
    // answer (hung, or a network that drops packets), give up after 10 s instead of 30 s.
    connectTimeoutMS: 10_000,
    appName: 'content-api',
    // Off unless asked for: each event decodes the command's reply a second time.
    monitorCommands,
  });
  const health = new DbHealth(client);
  await client.connect();
  const db = client.db(dbName);
  return { client, db, health, close: () => client.close() };
}
