import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { bucketsCollection, objectsCollection, publishedObjectsCollection } from '../../lib/db/collections.js';
import { PendingWriteSweeper, repairStalePendingWrites, STALE_WORK_MS } from '../../lib/objects/write/repair-sweep.js';
import { BucketSuite } from '../support/bucket-suite.js';

/**
 * A write the engine failed under, in a process that lives on: its Object carries the work it
 * still owes and stays out of step (latest version ahead of the live copy) until something
 * repairs it. Start-up repair only runs at the next start; the sweep finishes work older than any
 * running write.
 */
describe('repair of writes left pending while the process lives on', () => {
  let bucketId: ObjectId;
  const suite = new BucketSuite('sweep', async () => {
    await suite.api.post('/object-types', { title: 'Posts' }).expect(200);
    bucketId = (await bucketsCollection(suite.harness.db).findOne({ slug: 'sweep' }))!._id;
  });

  /** Latest version written carrying its work (its commit point), then the write failed: the live copy still shows `was`. */
  async function failedEdit(title: string, startedAgoMs: number): Promise<ObjectId> {
    const id = new ObjectId(
      (await suite.api.post('/objects', { title: 'was', type: 'posts' }).expect(200)).body.object.id as string,
    );
    await suite.harness.settled();
    const version = new Date();
    const since = new Date(Date.now() - startedAgoMs);
    const pending = { version, reason: 'edit' as const, withdraw: false, notify: false, since };
    await objectsCollection(suite.harness.db).updateOne(
      { _id: id, bucket_id: bucketId },
      { $set: { title, modified_at: version, pending } },
    );
    return id;
  }
  const carries = async (id: ObjectId) =>
    (await objectsCollection(suite.harness.db).countDocuments({ _id: id, pending: { $exists: true } })) === 1;
  const live = async (id: ObjectId) => (await publishedObjectsCollection(suite.harness.db).findOne({ _id: id }))?.title;

  it('finishes work older than a running write could be, and leaves younger ones to their writes', async () => {
    const stale = await failedEdit('stale', STALE_WORK_MS + 1000);
    const young = await failedEdit('young', 1000);
    assert.equal(await repairStalePendingWrites(suite.harness.writes), 1);
    assert.equal(await live(stale), 'stale');
    assert.equal(await carries(stale), false);
    assert.equal(await live(young), 'was', 'a write that may still be running is not touched');
    assert.equal(await carries(young), true);
    // Its own write (or a later sweep) settles it.
    assert.equal(await repairStalePendingWrites(suite.harness.writes, 0), 1);
    assert.equal(await live(young), 'young');
  });

  it('the sweeper repairs on its interval until stopped, and logs what it repaired', async () => {
    const id = await failedEdit('swept', STALE_WORK_MS + 1000);
    const logged: string[] = [];
    const sweeper = new PendingWriteSweeper(suite.harness.writes, 20, (m) => logged.push(m));
    sweeper.start();
    for (let i = 0; i < 100 && (await live(id)) !== 'swept'; i++) await new Promise((r) => setTimeout(r, 20));
    await sweeper.stop();
    assert.equal(await live(id), 'swept');
    assert.deepEqual(logged, ['repaired 1 Objects a failed write had left out of step']);
  });
});
