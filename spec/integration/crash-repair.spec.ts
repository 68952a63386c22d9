import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import {
  bucketsCollection,
  objectsCollection,
  publishedObjectsCollection,
  revisionsCollection,
} from '../../lib/db/collections.js';
import { repairAtStartUp, repairPendingWrites } from '../../lib/objects/write/repair.js';
import { pendingWritesCollection, type PendingWriteDoc } from '../../lib/objects/write/legacy-markers.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('crash repair of partial Object writes', () => {
  let bucketId: ObjectId;
  const suite = new BucketSuite('crash', async () => {
    await suite.api.post('/object-types', { title: 'Posts' }).expect(200);
    const bucket = await bucketsCollection(suite.harness.db).findOne({ slug: 'crash' });
    assert.ok(bucket);
    bucketId = bucket._id;
  });

  /** A new Object, once the work its create put off until after the answer has run. */
  const create = async (title: string) => {
    const id = new ObjectId(
      (await suite.api.post('/objects', { title, type: 'posts' }).expect(200)).body.object.id as string,
    );
    await suite.harness.settled();
    return id;
  };
  const generation = async () =>
    (await bucketsCollection(suite.harness.db).findOne({ _id: bucketId }))?.generation ?? 0;
  const revisions = (id: ObjectId) =>
    revisionsCollection(suite.harness.db).find({ object_id: id }).sort({ created_at: -1, _id: -1 }).toArray();

  /** A marker as an older release put it down before a write (it wrote them; none is written now). */
  async function leaveMarker(id: ObjectId, record: Pick<PendingWriteDoc, 'event'> = {}): Promise<void> {
    await pendingWritesCollection(suite.harness.db).insertOne({
      object_id: id,
      bucket_id: bucketId,
      at: new Date(),
      ...record,
    });
  }
  const markers = () => pendingWritesCollection(suite.harness.db).countDocuments({});

  /** Steps 1–2 of an older release's update (marker, latest version) then a crash. */
  async function crashAfterLatest(id: ObjectId, title: string): Promise<void> {
    await leaveMarker(id);
    await objectsCollection(suite.harness.db).updateOne({ _id: id }, { $set: { title, modified_at: new Date() } });
  }

  /** A version write that died after its commit point: the latest version carries its work (version-write.ts). */
  async function crashCarrying(id: ObjectId, title: string): Promise<void> {
    const at = new Date();
    const pending = { version: at, reason: 'edit' as const, withdraw: false, notify: true, since: at };
    await objectsCollection(suite.harness.db).updateOne({ _id: id }, { $set: { title, modified_at: at, pending } });
  }

  async function assertInStep(id: ObjectId, title: string): Promise<void> {
    assert.equal((await objectsCollection(suite.harness.db).findOne({ _id: id }))?.title, title);
    assert.equal((await publishedObjectsCollection(suite.harness.db).findOne({ _id: id }))?.title, title);
    assert.equal((await revisions(id))[0]?.title, title);
    assert.equal(await markers(), 0);
    assert.equal(await objectsCollection(suite.harness.db).countDocuments({ _id: id, pending: { $exists: true } }), 0);
  }

  it('an older release’s marker after the latest version: start-up rolls live view and revision forward', async () => {
    const id = await create('A1');
    await crashAfterLatest(id, 'A2');
    assert.equal((await publishedObjectsCollection(suite.harness.db).findOne({ _id: id }))?.title, 'A1');
    const before = await generation();
    assert.equal(await repairAtStartUp(suite.harness.writes), 1);
    await assertInStep(id, 'A2');
    assert.equal((await revisions(id)).length, 2);
    assert.ok((await generation()) > before, 'repair bumps the generation so caches drop stale reads');
    assert.equal(
      (await suite.api.get(`/objects/${id.toHexString()}?status=published`).expect(200)).body.object.title,
      'A2',
    );
  });

  it('an older release’s marker after the live copy, before the revision: start-up records the missing revision once', async () => {
    const id = await create('B1');
    await crashAfterLatest(id, 'B2');
    const latest = await objectsCollection(suite.harness.db).findOne({ _id: id });
    assert.ok(latest);
    await publishedObjectsCollection(suite.harness.db).replaceOne({ _id: id }, latest);
    await repairAtStartUp(suite.harness.writes);
    await assertInStep(id, 'B2');
    assert.equal((await revisions(id)).length, 2);
    assert.equal(await repairAtStartUp(suite.harness.writes), 0, 'nothing left to repair');
  });

  it('an older release’s marker after the revision, before the bump: start-up only bumps and clears the marker', async () => {
    const id = await create('C1');
    await leaveMarker(id);
    const before = await generation();
    await repairAtStartUp(suite.harness.writes);
    await assertInStep(id, 'C1');
    assert.equal((await revisions(id)).length, 1, 'no duplicate revision');
    assert.ok((await generation()) > before);
  });

  it('an older release’s marker without an Object (create crashed before its insert) is rolled back to no Object', async () => {
    const id = new ObjectId();
    await leaveMarker(id);
    await repairAtStartUp(suite.harness.writes);
    assert.equal(await objectsCollection(suite.harness.db).countDocuments({ _id: id }), 0);
    assert.equal(await publishedObjectsCollection(suite.harness.db).countDocuments({ _id: id }), 0);
    assert.equal((await revisions(id)).length, 0);
    assert.equal(await markers(), 0);
  });

  it('an older release’s delete that crashed after removing the Object is finished at start-up, its event emitted once, the markers dropped', async () => {
    const id = await create('D1');
    const doc = await objectsCollection(suite.harness.db).findOne({ _id: id });
    const bucket = await bucketsCollection(suite.harness.db).findOne({ _id: bucketId });
    assert.ok(doc && bucket);
    const event = await suite.harness.writes.events.describe(suite.harness.db, bucket, { type: 'object.deleted', doc });
    await leaveMarker(id, { event });
    await objectsCollection(suite.harness.db).deleteOne({ _id: id });
    const emitted = suite.harness.emitted.length;
    assert.equal(await repairAtStartUp(suite.harness.writes), 1);
    assert.equal(await publishedObjectsCollection(suite.harness.db).countDocuments({ _id: id }), 0);
    assert.equal((await revisions(id)).length, 0);
    assert.deepEqual(
      suite.harness.emitted.slice(emitted).map((e) => [e.type, e.id]),
      [['object.deleted', event.id]],
    );
    const left = (await suite.harness.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    assert.ok(!left.includes('pending_writes'), 'the emptied marker collection is dropped');
    assert.equal(await repairAtStartUp(suite.harness.writes), 0, 'a second start finds nothing to migrate');
    assert.equal(suite.harness.emitted.length, emitted + 1);
  });

  it('the next PATCH of an out-of-step Object repairs it first', async () => {
    const id = await create('E1');
    await crashCarrying(id, 'E2');
    await suite.api.patch(`/objects/${id.toHexString()}`, { content: 'x' }).expect(200);
    await suite.harness.settled();
    await assertInStep(id, 'E2');
    assert.deepEqual(
      (await revisions(id)).map((r) => r.title),
      ['E2', 'E2', 'E1'],
      'the crashed write gets its own revision before the PATCH records its own',
    );
  });

  it('work an Object carries from a write that died after its commit point is finished by start-up repair', async () => {
    const id = await create('H1');
    await crashCarrying(id, 'H2');
    const before = await generation();
    const emitted = suite.harness.emitted.length;
    assert.equal(await repairPendingWrites(suite.harness.writes), 1);
    await assertInStep(id, 'H2');
    assert.equal((await revisions(id)).length, 2);
    assert.deepEqual(
      suite.harness.emitted.slice(emitted).map((e) => e.type),
      ['object.edited'],
    );
    assert.ok((await bucketsCollection(suite.harness.db).findOne({ _id: bucketId }))?.object_generation ?? 0 > before);
    assert.equal(await repairPendingWrites(suite.harness.writes), 0, 'nothing left to repair');
  });

  it('a completed write leaves nothing owed', async () => {
    const id = await create('F1');
    await suite.api.patch(`/objects/${id.toHexString()}`, { title: 'F2' }).expect(200);
    await suite.harness.settled();
    await assertInStep(id, 'F2');
  });
});
