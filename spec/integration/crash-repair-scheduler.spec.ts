import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { createApp } from '../../lib/app.js';
import { objectsCollection, publishedObjectsCollection, revisionsCollection } from '../../lib/db/collections.js';
import { repairPendingWrites } from '../../lib/objects/write/repair.js';
import { pendingWritesCollection } from '../../lib/objects/write/legacy-markers.js';
import { Scheduler } from '../../lib/scheduling/scheduler.js';
import { feedCollection } from '../../lib/events/feed-collection.js';
import { bucketClient } from '../support/client.js';
import { Crash, interceptWrites, type WriteCall } from '../support/intercept-writes.js';
import { BucketSuite } from '../support/bucket-suite.js';

const HOUR = 3600_000;
/** Longer than the scheduler's claim lease: a claim taken at `due` has lapsed by then. */
const AFTER_LEASE = 2 * HOUR + 5 * 60_000;

describe('crash repair of scheduled publishing', () => {
  const suite = new BucketSuite('crash-sched', async () => {
    await suite.api.post('/object-types', { title: 'News' }).expect(200);
  });

  const later = (ms: number) => () => new Date(Date.now() + ms);
  const due = later(2 * HOUR);
  const tick = (now: () => Date) => new Scheduler(suite.harness.writes, { intervalMs: 0, now }).tick();
  /** A new Object, once the work its create put off until after the answer has run. */
  const create = async (body: object) => {
    const id = new ObjectId(
      (await suite.api.post('/objects', { type: 'news', ...body }).expect(200)).body.object.id as string,
    );
    await suite.harness.settled();
    return id;
  };
  const revisions = (id: ObjectId) =>
    revisionsCollection(suite.harness.db).find({ object_id: id }).sort({ created_at: -1, _id: -1 }).toArray();

  /** One tick of a process that dies just before its `k`-th write (from 0): did it die, and what it wrote. */
  async function tickCrashingAt(k: number): Promise<{ crashed: boolean; calls: WriteCall[] }> {
    const calls: WriteCall[] = [];
    const db = interceptWrites(suite.harness.db, (call) => {
      if (call.n === k) throw new Crash(`died before write ${k}`);
      calls.push(call);
    });
    try {
      await new Scheduler({ db, events: suite.harness.writes.events }, { intervalMs: 0, now: due }).tick();
      return { crashed: false, calls };
    } catch (err) {
      if (err instanceof Crash) return { crashed: true, calls };
      throw err;
    }
  }

  /** Latest version, live view and newest revision tell the same story, and no marker is left. */
  async function assertInStep(id: ObjectId, what: string): Promise<void> {
    const latest = await objectsCollection(suite.harness.db).findOne({ _id: id });
    const live = await publishedObjectsCollection(suite.harness.db).findOne({ _id: id });
    const [newest] = await revisions(id);
    assert.ok(latest && newest, what);
    assert.equal(
      await pendingWritesCollection(suite.harness.db).countDocuments({ object_id: id }),
      0,
      `${what}: marker left`,
    );
    assert.equal(newest.created_at.getTime(), latest.modified_at.getTime(), `${what}: newest revision`);
    assert.equal(newest.status, latest.status, `${what}: revision status`);
    assert.equal(live !== null, latest.status === 'published', `${what}: live view is there iff published`);
    if (live) assert.equal(live.modified_at.getTime(), latest.modified_at.getTime(), `${what}: live version`);
  }

  /**
   * Crashes a tick before each of its writes in turn (a fresh Object each time), then does what a
   * restarted service does: start-up repair, then ticks once the dead process's claim has lapsed.
   * Returns the writes of the first run that got through: the steps a crash was put before.
   */
  async function crashAtEveryWrite(
    setUp: (k: number) => Promise<ObjectId>,
    finished: (id: ObjectId, what: string) => Promise<void>,
  ): Promise<WriteCall[]> {
    for (let k = 0; ; k++) {
      const id = await setUp(k);
      const what = `crash before write ${k}`;
      const run = await tickCrashingAt(k);
      if (!run.crashed) {
        await finished(id, 'no crash');
        return run.calls;
      }
      await repairPendingWrites(suite.harness.writes);
      await assertInStep(id, `${what}, after repair`);
      await tick(later(AFTER_LEASE));
      await finished(id, what);
      assert.equal(await tick(later(AFTER_LEASE)), 0, `${what}: nothing is done twice`);
    }
  }

  const steps = (calls: WriteCall[]) => calls.map((c) => `${c.method} ${c.collection}`);

  it('a scheduled publish cut short at any step is finished exactly once', async () => {
    const calls = await crashAtEveryWrite(
      (k) => create({ title: `Pub ${k}`, publish_at: Date.now() + HOUR }),
      async (id, what) => {
        await assertInStep(id, what);
        const latest = await objectsCollection(suite.harness.db).findOne({ _id: id });
        assert.equal(latest?.status, 'published', what);
        assert.equal(latest.publish_at, null, what);
        const published = { bucket_id: latest.bucket_id, type: 'object.published' as const };
        const feed = await feedCollection(suite.harness.db).find(published).toArray();
        assert.equal(feed.filter((e) => e.event_id.startsWith(id.toHexString())).length, 1, `${what}: one feed entry`);
        assert.deepEqual(
          (await revisions(id)).map((r) => r.reason),
          ['scheduled-publish', 'create'],
          `${what}: published once`,
        );
      },
    );
    // The commit carries the follow-ups (version-write.ts); they go out together, then the carried work is cleared.
    assert.deepEqual(steps(calls).slice(0, 8), [
      'findOneAndUpdate objects',
      // The commit: an update over the version claimed that fails where another is in place.
      'updateOne objects',
      'replaceOne published_objects',
      'insertOne revisions',
      'insertOne change_events',
      'updateOne write_notes',
      'updateOne buckets',
      'updateOne objects',
    ]);
  });

  it('a scheduled unpublish cut short at any step is finished exactly once', async () => {
    const calls = await crashAtEveryWrite(
      (k) => create({ title: `Unpub ${k}`, unpublish_at: Date.now() + HOUR }),
      async (id, what) => {
        await assertInStep(id, what);
        const latest = await objectsCollection(suite.harness.db).findOne({ _id: id });
        assert.equal(latest?.status, 'draft', what);
        assert.equal(latest.unpublish_at, null, what);
        assert.equal(
          await publishedObjectsCollection(suite.harness.db).countDocuments({ _id: id }),
          0,
          `${what}: withdrawn`,
        );
        assert.deepEqual(
          (await revisions(id)).map((r) => r.reason),
          ['scheduled-unpublish', 'create'],
          `${what}: withdrawn once`,
        );
      },
    );
    // The publish claim that finds nothing comes first.
    assert.deepEqual(steps(calls).slice(1, 9), [
      'findOneAndUpdate objects',
      // The commit: an update over the version claimed that fails where another is in place.
      'updateOne objects',
      'deleteOne published_objects',
      'insertOne revisions',
      'insertOne change_events',
      'updateOne write_notes',
      'updateOne buckets',
      'updateOne objects',
    ]);
  });

  it('repair withdraws nothing for an unpublish that died before its commit point', async () => {
    // Published, then a draft saved over it: the live version is the older one, until unpublish_at.
    const id = await create({ title: 'Live', unpublish_at: Date.now() + HOUR });
    await suite.api.patch(`/objects/${id.toHexString()}`, { title: 'Draft', status: 'draft' }).expect(200);
    await suite.harness.settled();
    const dying = new Scheduler(
      {
        db: interceptWrites(suite.harness.db, ({ collection, method }) => {
          if (collection === 'objects' && method === 'updateOne') throw new Crash('died before the commit point');
        }),
        events: suite.harness.writes.events,
      },
      { intervalMs: 0, now: due },
    );
    await assert.rejects(dying.tick(), Crash);
    // Nothing was committed, so nothing is owed: the write carries its work in the commit itself.
    assert.equal(await repairPendingWrites(suite.harness.writes), 0);
    assert.equal(
      (await publishedObjectsCollection(suite.harness.db).findOne({ _id: id }))?.title,
      'Live',
      'still live',
    );
    assert.equal(await tick(later(AFTER_LEASE)), 1, 'the lapsed claim is redone');
    assert.equal(await publishedObjectsCollection(suite.harness.db).countDocuments({ _id: id }), 0);
    assert.deepEqual(
      (await revisions(id)).map((r) => r.reason),
      ['scheduled-unpublish', 'edit', 'create'],
    );
  });

  it('a tick repairs an Object a crashed write left out of step before publishing it', async () => {
    const id = await create({ title: 'R1', publish_at: Date.now() + HOUR });
    // An API process dies after PATCH wrote the latest version, before its revision.
    const crashLog: string[] = [];
    const dying = createApp({
      config: suite.harness.config,
      db: interceptWrites(suite.harness.db, ({ collection }) => {
        if (collection === 'revisions') throw new Crash('died before the revision');
      }),
      log: (m) => crashLog.push(m),
    });
    await bucketClient(dying, suite.keys).patch(`/objects/${id.toHexString()}`, { title: 'R2' }).expect(500);
    assert.equal(crashLog.length, 1);
    assert.equal(await tick(due), 1);
    await assertInStep(id, 'after the tick');
    assert.deepEqual(
      (await revisions(id)).map((r) => `${r.reason} ${r.title}`),
      ['scheduled-publish R2', 'edit R2', 'create R1'],
      'the crashed edit gets its own revision before the publish records its own',
    );
    assert.equal((await suite.api.get(`/objects/${id.toHexString()}`).expect(200)).body.object.title, 'R2');
  });

  it('a process whose claim lapsed and was taken over writes nothing and leaves no marker', async () => {
    const id = await create({ title: 'Slow', publish_at: Date.now() + HOUR });
    let other = -1;
    // The slow process stalls just before its commit; meanwhile its lease lapses and another
    // process claims the Object and publishes it.
    const slow = new Scheduler(
      {
        db: interceptWrites(suite.harness.db, async ({ collection, method }) => {
          // The first update of an Object after the claim is the commit.
          if (other === -1 && collection === 'objects' && method === 'updateOne') {
            other = await tick(later(AFTER_LEASE));
          }
        }),
        events: suite.harness.writes.events,
      },
      { intervalMs: 0, now: due },
    );
    assert.equal(await slow.tick(), 0);
    assert.equal(other, 1);
    await assertInStep(id, 'after both');
    assert.deepEqual(
      (await revisions(id)).map((r) => r.reason),
      ['scheduled-publish', 'create'],
    );
    assert.equal(await pendingWritesCollection(suite.harness.db).countDocuments({}), 0);
  });
});
