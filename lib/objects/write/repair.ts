import type { ObjectId } from 'mongodb';
import { objectsCollection } from '../../db/collections.js';
import type { EventDeps } from '../../events/domain-events.js';
import { readOptions } from '../../db/service-db.js';
import { carryingWork, finishCarried } from './version-write.js';
import { migrateLegacyMarkers } from './legacy-markers.js';

/**
 * Crash repair: every write (version writes, deletes, a type delete's deletes) carries the work
 * it still owes inside its Object (`pending`, version-write.ts and delete-write.ts), so repair
 * is finishing that work. Whoever reads the Object next does it; this is the repair of one Object
 * (before an import, a replay, a merge) and of all of them (start-up, the stale sweep).
 */

/**
 * Finishes the work one Object carries. A no-op for an Object in step. `bucketId`, when the
 * caller knows it, sends the lookup to one shard of a cluster sharded by Bucket.
 */
export async function repairObject(deps: EventDeps, objectId: ObjectId, bucketId?: ObjectId): Promise<boolean> {
  const filter = bucketId ? { _id: objectId, bucket_id: bucketId } : { _id: objectId };
  const latest = await objectsCollection(deps.db).findOne(filter, readOptions(deps.db));
  return latest ? finishCarried(deps, latest) : false;
}

/**
 * Finishes the work carried from before `before` (all of it by default: start-up repair, when
 * no write of this process is running). Returns how many Objects it repaired.
 */
export async function repairPendingWrites(deps: EventDeps, before?: Date): Promise<number> {
  let repaired = 0;
  for await (const doc of carryingWork(deps.db, before)) if (await finishCarried(deps, doc)) repaired++;
  return repaired;
}

/** Start-up repair: the markers an older release left (once), then all carried work. */
export async function repairAtStartUp(deps: EventDeps): Promise<number> {
  return (await migrateLegacyMarkers(deps)) + (await repairPendingWrites(deps));
}
