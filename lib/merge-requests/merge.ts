import { isDeepStrictEqual } from 'node:util';
import type { Db } from 'mongodb';
import type { ForRequest } from '../http/respond.js';
import { objectsCollection, revisionsCollection, type BucketDoc, type RevisionDoc } from '../db/collections.js';
import { HttpError } from '../errors/http-errors.js';
import { readOptions } from '../db/service-db.js';
import { updateObject, type ObjectWriteDeps } from '../objects/write/object-writes.js';
import { exactVersion } from '../http/if-match.js';
import { mergeRequestsCollection, type MergeItem, type MergeRequestDoc } from './collection.js';
import { getMergeRequest, notOpen } from './manage.js';

/** A merge claim older than this is a crashed merge: another merge may take over and finish it. */
export const MERGE_CLAIM_MS = 60_000;

type ItemState = 'recorded' | 'published' | 'changed' | 'deleted';

/**
 * Where an Object stands against its recorded draft. Published also covers a publish of exactly
 * that draft (nothing else changed) by someone else, or by a merge that crashed before it could
 * note the item done.
 */
async function itemState(db: Db, bucket: BucketDoc, item: MergeItem): Promise<ItemState> {
  const latest = await objectsCollection(db).findOne({ _id: item.object_id, bucket_id: bucket._id }, readOptions(db));
  if (!latest) return 'deleted';
  if (latest.modified_at.getTime() === item.version.getTime()) return 'recorded';
  const after = await revisionsCollection(db)
    .find({ object_id: item.object_id, created_at: { $gt: item.version } }, readOptions(db))
    .sort({ created_at: 1 })
    .limit(2)
    .toArray();
  const [next] = after;
  if (after.length !== 1 || next?.reason !== 'publish' || next.created_at.getTime() !== latest.modified_at.getTime())
    return 'changed';
  const recorded = await revisionsCollection(db).findOne({ _id: item.revision_id }, readOptions(db));
  return recorded && sameContent(recorded, next) ? 'published' : 'changed';
}

/** A publish that also changed the content published something else than the recorded draft. */
function sameContent(a: RevisionDoc, b: RevisionDoc): boolean {
  const content = (r: RevisionDoc) => [r.type, r.slug, r.title, r.content, r.metadata];
  return isDeepStrictEqual(content(a), content(b));
}

function conflict(doc: MergeRequestDoc, changed: { item: MergeItem; state: ItemState }[]): HttpError {
  const named = changed.map(({ item, state }) => `'${item.object_id.toHexString()}' (${state})`).join(', ');
  return new HttpError(
    409,
    `Merge request '${doc._id.toHexString()}': Objects changed or deleted after their drafts were recorded: ${named}; nothing of theirs was published`,
    'merge_conflict',
  );
}

/**
 * Publishes every recorded draft through the Object write path (each its revision and its
 * object.published event), then marks the request merged. All Objects are checked first, so a
 * changed one refuses the merge before anything is published; each publish is still conditional
 * on the recorded version, so a write landing meanwhile stops the merge with the items published
 * so far noted, and the request stays open for a later merge to finish or for a close.
 */
export async function mergeMergeRequest(
  deps: ObjectWriteDeps & ForRequest,
  bucket: BucketDoc,
  id: string,
): Promise<MergeRequestDoc> {
  const { db } = deps;
  const coll = mergeRequestsCollection(db);
  const current = await getMergeRequest(db, bucket, id);
  const since = new Date();
  const claimed = await coll.findOneAndUpdate(
    {
      _id: current._id,
      bucket_id: bucket._id,
      $or: [
        { status: 'open' },
        { status: 'merging', merging_since: { $lt: new Date(since.getTime() - MERGE_CLAIM_MS) } },
      ],
    },
    { $set: { status: 'merging', merging_since: since, modified_at: since } },
    { returnDocument: 'after' },
  );
  if (!claimed) throw notOpen(await getMergeRequest(db, bucket, id));
  const mine = { _id: claimed._id, status: 'merging' as const, merging_since: since };
  try {
    const states = await Promise.all(
      claimed.items.map(async (item) => ({ item, state: await itemState(db, bucket, item) })),
    );
    const bad = states.filter((s) => s.state === 'changed' || s.state === 'deleted');
    if (bad.length > 0) throw conflict(claimed, bad);
    for (const [index, { item, state }] of states.entries()) {
      if (item.published_at) continue;
      if (state === 'recorded') {
        const guard = exactVersion(item.version, () => conflict(claimed, [{ item, state: 'changed' }]));
        await updateObject(
          deps,
          bucket,
          item.object_id.toHexString(),
          { status: 'published' },
          { ifVersion: guard },
        ).catch((err: unknown) => {
          // Deleted between the check and its publish.
          throw err instanceof HttpError && err.status === 404 ? conflict(claimed, [{ item, state: 'deleted' }]) : err;
        });
      }
      await coll.updateOne(mine, { $set: { [`items.${String(index)}.published_at`]: new Date() } });
    }
    const at = new Date();
    const merged = await coll.findOneAndUpdate(
      mine,
      {
        $set: { status: 'merged', merged_at: at, merged_by: deps.request?.actor ?? null, modified_at: at },
        $unset: { merging_since: '' },
      },
      { returnDocument: 'after' },
    );
    if (!merged) throw notOpen(await getMergeRequest(db, bucket, id));
    return merged;
  } catch (err) {
    await coll.updateOne(mine, { $set: { status: 'open', modified_at: new Date() }, $unset: { merging_since: '' } });
    throw err;
  }
}
