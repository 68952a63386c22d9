import type { Db } from 'mongodb';
import { objectsCollection } from '../db/collections.js';

export interface ScheduleDepth {
  /** Objects whose publish_at (unpublish_at) has come and that the scheduler has yet to publish (withdraw). */
  due: { publish: number; unpublish: number };
  /** Objects scheduled for later. */
  waiting: { publish: number; unpublish: number };
}

/**
 * The scheduler's queue over every Bucket: Objects carrying a publish_at or unpublish_at (the
 * Scheduler clears the field when it has done the job). Each count is a range on the field's
 * sparse index.
 */
export async function scheduleDepth(db: Db, now: Date, maxTimeMS: number): Promise<ScheduleDepth> {
  const objects = objectsCollection(db);
  const count = (field: 'publish_at' | 'unpublish_at', range: { $lte: Date } | { $gt: Date }) =>
    objects.countDocuments({ [field]: range }, { maxTimeMS });
  const [publishDue, unpublishDue, publishLater, unpublishLater] = await Promise.all([
    count('publish_at', { $lte: now }),
    count('unpublish_at', { $lte: now }),
    count('publish_at', { $gt: now }),
    count('unpublish_at', { $gt: now }),
  ]);
  return {
    due: { publish: publishDue, unpublish: unpublishDue },
    waiting: { publish: publishLater, unpublish: unpublishLater },
  };
}
