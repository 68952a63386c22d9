import type { Db } from 'mongodb';
import { connectDatabase, type Database } from './db/database.js';
import { ensureContentIndexes } from './db/indexes.js';
import { ensureMediaIndexes } from './store/media.js';
import { ensureMediaFolderIndexes } from './media/folders-collection.js';
import { ensureWebhookIndexes } from './store/webhooks.js';
import { ensureFeedIndexes } from './events/feed-collection.js';
import { ensureTicketIndexes } from './realtime/tickets.js';
import { ensureRateLimitIndexes } from './limits/rate-limits.js';
import { ensureMergeRequestIndexes } from './merge-requests/collection.js';
import { ensureBlockIndexes } from './blocks/blocks.js';
import { ensureAccountIndexes } from './accounts/indexes.js';
import { ensureExtensionIndexes } from './store/extensions.js';
import { ensureIdempotencyIndexes } from './store/idempotency.js';

/*
 * Every index the service declares, resource by resource. Composed here, above the resources,
 * rather than in lib/db: the database layer knows no resource, and each resource declares its own.
 */

export async function ensureIndexes(db: Db): Promise<void> {
  await ensureContentIndexes(db);
  await ensureMediaIndexes(db);
  await ensureMediaFolderIndexes(db);
  await ensureWebhookIndexes(db);
  await ensureFeedIndexes(db);
  await ensureTicketIndexes(db);
  await ensureRateLimitIndexes(db);
  await ensureMergeRequestIndexes(db);
  await ensureBlockIndexes(db);
  await ensureAccountIndexes(db);
  await ensureExtensionIndexes(db);
  await ensureIdempotencyIndexes(db);
}

/** Connects, then makes sure every declared index exists: what a server or a CLI run starts with. */
export async function openDatabase(
  uri: string,
  dbName: string,
  options: Parameters<typeof connectDatabase>[2] = {},
): Promise<Database> {
  const database = await connectDatabase(uri, dbName, options);
  await ensureIndexes(database.db);
  return database;
}
