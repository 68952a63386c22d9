import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { bucketsCollection, objectsCollection, type BucketDoc } from '../../lib/db/collections.js';
import { eventId, type DomainEvents } from '../../lib/events/domain-events.js';
import { removeObject, removeObjectsOfType } from '../../lib/objects/write/object-delete.js';
import { updateObject } from '../../lib/objects/write/object-writes.js';
import { repairPendingWrites } from '../../lib/objects/write/repair.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { BucketSuite } from '../support/bucket-suite.js';
import { Crash, interceptWrites, type WriteCall } from '../support/intercept-writes.js';

describe('domain events survive a crash after the commit point', () => {
  const suite = new BucketSuite('crashev', (api) => api.post('/object-types', { title: 'Posts' }).expect(200));
  let bucket: BucketDoc;
  before(async () => {
    const found = await bucketsCollection(suite.harness.db).findOne({ slug: 'crashev' });
    assert.ok(found);
    bucket = found;
  });

  /** A new Object, once the work its create put off until after the answer has run. */
  const create = async (title: string) => {
    const id = String((await suite.api.post('/objects', { title, type: 'posts' }).expect(200)).body.object.id);
    await suite.harness.settled();
    return id;
  };
  /** The write deps of a process that dies just before the first write `dies` picks. */
  const dying = (dies: (call: WriteCall) => boolean) => ({
    db: interceptWrites(suite.harness.db, (call) => {
      if (dies(call)) throw new Crash(`died before ${call.collection}.${call.method}`);
    }),
    events: suite.harness.writes.events,
    validators: new MetadataValidators(),
    request: null,
  });
  /**
   * The app's event seam with a sink besides the outbox: an edit's commit is then a command of
   * its own, and the sinks hear of the event after it, before the follow-ups go out
   * (version-write.ts). `dies`: the process dies as it hands the event to them.
   */
  const withSink = (dies: boolean) => {
    const events = Object.create(suite.harness.writes.events) as DomainEvents;
    Object.defineProperty(events, 'hasSinks', { value: true });
    if (dies) {
      events.emit = () => Promise.reject(new Crash('died before emitting'));
      events.toSinks = () => Promise.reject(new Crash('died before emitting'));
    }
    return events;
  };
  const since = (from: number) => suite.harness.emitted.slice(from).map((e) => [e.type, e.subjectId, e.id]);

  it('an edit that died before its event: no event yet, repair emits it with the id the write would have had', async () => {
    const id = await create('Before');
    const from = suite.harness.emitted.length;
    const deps = { ...dying(() => false), events: withSink(true) };
    await assert.rejects(updateObject(deps, bucket, id, { title: 'After' }), Crash);
    assert.deepEqual(since(from), [], 'the process died before its event');
    assert.equal(await repairPendingWrites(suite.harness.writes), 1);
    const latest = await objectsCollection(suite.harness.db).findOne({ _id: new ObjectId(id) });
    assert.ok(latest);
    assert.deepEqual(since(from), [['object.edited', id, eventId('object.edited', id, latest.modified_at)]]);
    assert.equal((suite.harness.emitted.at(-1)?.data as { title: string }).title, 'After');
  });

  it('an edit that died in its one command, after the commit: no event yet, repair emits it once', async () => {
    const id = await create('Midway');
    const from = suite.harness.emitted.length;
    // Without sinks the commit and its follow-ups are one ordered command: it stops at the live copy.
    const deps = dying((c) => c.collection === 'published_objects');
    await assert.rejects(updateObject(deps, bucket, id, { title: 'Midway 2' }), Crash);
    assert.deepEqual(since(from), []);
    const carried = await objectsCollection(suite.harness.db).findOne({ _id: new ObjectId(id) });
    assert.ok(carried);
    assert.equal(carried.title, 'Midway 2', 'past the commit point');
    assert.ok(carried.pending, 'carrying its follow-ups');
    assert.equal(await repairPendingWrites(suite.harness.writes), 1);
    assert.deepEqual(since(from), [['object.edited', id, eventId('object.edited', id, carried.modified_at)]]);
    assert.equal((await suite.api.get(`/objects/${id}?useCache=false`).expect(200)).body.object.title, 'Midway 2');
  });

  it('an edit that died after emitting, before its carried work was cleared: repair emits the same event id again', async () => {
    const id = await create('Once');
    const from = suite.harness.emitted.length;
    // The second write to `objects`: the clear (the first is the commit).
    let objectWrites = 0;
    const deps = {
      ...dying((c) => c.collection === 'objects' && c.method === 'updateOne' && ++objectWrites === 2),
      events: withSink(false),
    };
    await assert.rejects(updateObject(deps, bucket, id, { title: 'Twice' }), Crash);
    await repairPendingWrites(suite.harness.writes);
    const [first, again] = since(from);
    assert.equal(first?.[0], 'object.edited');
    assert.deepEqual(again, first, 'a sink idempotent by id keeps one');
  });

  it('a notifying delete that died after its commit point: repair emits object.deleted, rendered from the Object', async () => {
    const id = await create('Gone');
    const from = suite.harness.emitted.length;
    const deps = dying((c) => c.collection === 'published_objects');
    await assert.rejects(removeObject(deps, bucket, id, true), Crash);
    // The claim is the commit point: the Object carries its delete and goes last (delete-write.ts).
    const claimed = await objectsCollection(suite.harness.db).findOne({ _id: new ObjectId(id) });
    assert.ok(claimed?.pending && 'deletes' in claimed.pending, 'past the commit point');
    assert.deepEqual(since(from), []);
    assert.equal(await repairPendingWrites(suite.harness.writes), 1);
    assert.deepEqual(
      since(from).map(([type, subject]) => [type, subject]),
      [['object.deleted', id]],
    );
    assert.equal((suite.harness.emitted.at(-1)?.data as { title: string }).title, 'Gone');
    await suite.api.get(`/objects/${id}?status=any`).expect(404);
  });

  it('a delete without trigger_webhook that died: repair finishes it and emits nothing', async () => {
    const id = await create('Silent');
    const from = suite.harness.emitted.length;
    await assert.rejects(
      removeObject(
        dying((c) => c.collection === 'revisions'),
        bucket,
        id,
        false,
      ),
      Crash,
    );
    assert.equal(await repairPendingWrites(suite.harness.writes), 1);
    assert.deepEqual(since(from), []);
  });

  it('a delete with sinks that died as it told them: claimed, and repair tells them again with the same id', async () => {
    const id = await create('Told');
    const from = suite.harness.emitted.length;
    const deps = { ...dying(() => false), events: withSink(true) };
    await assert.rejects(removeObject(deps, bucket, id, true), Crash);
    // The sinks hear of it between the claim and the rest (delete-write.ts): the claim is down.
    const claimed = await objectsCollection(suite.harness.db).findOne({ _id: new ObjectId(id) });
    assert.ok(claimed?.pending && 'deletes' in claimed.pending, 'past the commit point');
    assert.deepEqual(since(from), []);
    assert.equal(await repairPendingWrites(suite.harness.writes), 1);
    assert.deepEqual(
      since(from).map(([type, subject]) => [type, subject]),
      [['object.deleted', id]],
    );
    await suite.api.get(`/objects/${id}?status=any`).expect(404);
  });

  it('a type delete that died mid-way: repair finishes every claimed Object, each object.deleted once', async () => {
    await suite.api.post('/object-types', { title: 'Doomed', slug: 'doomed' }).expect(200);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        String((await suite.api.post('/objects', { title: `D${i}`, type: 'doomed' }).expect(200)).body.object.id),
      );
    await suite.harness.settled();
    const from = suite.harness.emitted.length;
    // The claims went down; the process dies at the first removal of a live copy and writes nothing after.
    let dead = false;
    const deps = dying((c) => (dead ||= c.collection === 'published_objects'));
    await assert.rejects(
      removeObjectsOfType(deps, bucket, 'doomed', true, () => undefined),
      Crash,
    );
    const left = await objectsCollection(suite.harness.db).find({ bucket_id: bucket._id, type: 'doomed' }).toArray();
    assert.equal(left.length, 5, 'nothing removed before the crash');
    assert.ok(
      left.every((d) => d.pending && 'deletes' in d.pending),
      'every Object claimed',
    );
    assert.equal(await repairPendingWrites(suite.harness.writes), 5);
    assert.equal(
      await objectsCollection(suite.harness.db).countDocuments({ bucket_id: bucket._id, type: 'doomed' }),
      0,
    );
    // A sink that heard of some before the crash hears the same ids again: one event per Object.
    const deleted = since(from).filter(([type]) => type === 'object.deleted');
    assert.deepEqual(new Set(deleted.map(([, subject]) => subject)), new Set(ids));
    assert.equal(new Set(deleted.map(([, , eventId]) => eventId)).size, 5);
    for (const id of ids) await suite.api.get(`/objects/${id}?status=any`).expect(404);
    assert.equal(await repairPendingWrites(suite.harness.writes), 0, 'nothing left');
  });
});
