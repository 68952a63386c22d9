import type { Db } from 'mongodb';
import { settingsOf } from './service-db.js';

/**
 * MongoDB 8.0's bulkWrite command writes to several collections in one command. Whether a
 * handle's servers have it is asked once per owner of the handle (buildInfo) and kept in the
 * handle's capabilities (`service-db.ts`); a server that turns out not to know the command
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
