import { MongoClient, type Db } from 'mongodb';
import { ensureIndexes } from './indexes.js';

export interface Database {
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

export async function connectDatabase(uri: string, dbName: string): Promise<Database> {
  const client = new MongoClient(uri, {
    // A dead server must surface as an error quickly instead of hanging requests.
    serverSelectionTimeoutMS: 10_000,
    appName: 'content-api',
  });
  await client.connect();
  const db = client.db(dbName);
  await ensureIndexes(db);
  return { client, db, close: () => client.close() };
}
