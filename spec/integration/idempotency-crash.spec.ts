import assert from 'node:assert/strict';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../lib/app.js';
import { objectsCollection, publishedObjectsCollection, revisionsCollection } from '../../lib/db/collections.js';
import { pendingWritesCollection } from '../../lib/objects/write/legacy-markers.js';
import { Crash, interceptWrites, type WriteCall } from '../support/intercept-writes.js';
import { BucketSuite } from '../support/bucket-suite.js';

const KEY = 'Idempotency-Key';

/**
 * The finding this guards: a create the engine or the process died in after its Object was
 * written, but before its answer was kept, answered 5xx; a retry then made a second Object.
 */
describe('Idempotency-Key: a create interrupted after its Object was written', () => {
  let writeKey: string;
  const suite = new BucketSuite('idemcrash', async () => {
    writeKey = suite.keys.write_key ?? '';
    await post(suite.harness.app, '/object-types', { title: 'Posts' }).expect(200);
  });

  function post(app: Express, path: string, body: object, key?: string) {
    const t = request(app).post(`/v3/buckets/idemcrash${path}`).set('Authorization', `Bearer ${writeKey}`);
    return (key === undefined ? t : t.set(KEY, key)).send(body);
  }

  /** An app whose process dies just before the first write `dies` picks: that write and every later one fail. */
  function dyingApp(dies: (call: WriteCall) => boolean): Express {
    let dead = false;
    const db = interceptWrites(suite.harness.db, (call) => {
      dead ||= dies(call);
      if (dead) throw new Crash(`died before ${call.collection}.${call.method}`);
    });
    return createApp({ config: suite.harness.config, db, log: () => undefined, events: suite.harness.writes.events });
  }

  const afterObjectWrite = (c: WriteCall) => c.collection === 'published_objects';

  async function assertOneObjectInStep(title: string, id: string): Promise<void> {
    const docs = await objectsCollection(suite.harness.db).find({ title }).toArray();
    assert.deepEqual(
      docs.map((d) => d._id.toHexString()),
      [id],
      'one Object',
    );
    const [only] = docs;
    assert.ok(only);
    const { _id } = only;
    assert.equal((await publishedObjectsCollection(suite.harness.db).findOne({ _id }))?.title, title, 'its live copy');
    assert.equal(await revisionsCollection(suite.harness.db).countDocuments({ object_id: _id }), 1, 'its one revision');
    assert.equal(
      await pendingWritesCollection(suite.harness.db).countDocuments({ object_id: _id }),
      0,
      'no marker left',
    );
  }

  it('died after the Object was written: the retry answers that Object, repaired, and makes no second one', async () => {
    const body = { title: 'Survivor', type: 'posts' };
    await post(dyingApp(afterObjectWrite), '/objects', body, 'crash-1').expect(500);
    assert.equal(
      await objectsCollection(suite.harness.db).countDocuments({ title: 'Survivor' }),
      1,
      'written before the crash',
    );
    const res = await post(suite.harness.app, '/objects', body, 'crash-1').expect(200);
    assert.equal(res.headers['idempotent-replayed'], 'true');
    assert.equal(res.body.object.title, 'Survivor');
    await assertOneObjectInStep('Survivor', res.body.object.id as string);
    const again = await post(suite.harness.app, '/objects', body, 'crash-1').expect(200);
    assert.equal(again.text, res.text, 'the answer is kept from then on');
  });

  it('the kept answer lost (another process held the key and died): the retry still finds the Object', async () => {
    const body = { title: 'Orphaned key', type: 'posts' };
    await post(dyingApp(afterObjectWrite), '/objects', body, 'crash-2').expect(500);
    await suite.harness.db.collection('idempotency_keys').deleteMany({ key: 'crash-2' });
    const other = await post(suite.harness.app, '/objects', { ...body, title: 'Not it' }, 'crash-2').expect(422);
    assert.equal(other.body.code, 'idempotency_key_reused', 'the Object is held to its request too');
    await suite.harness.db.collection('idempotency_keys').deleteMany({ key: 'crash-2' });
    const res = await post(suite.harness.app, '/objects', body, 'crash-2').expect(200);
    assert.equal(res.headers['idempotent-replayed'], 'true');
    await assertOneObjectInStep('Orphaned key', res.body.object.id as string);
  });

  it('a key another live process holds is 409 conflict with Retry-After; taken over once its lease lapsed', async () => {
    const body = { title: 'Elsewhere', type: 'posts' };
    await post(dyingApp(afterObjectWrite), '/objects', body, 'crash-3').expect(500);
    const records = suite.harness.db.collection('idempotency_keys');
    const lease = new Date(Date.now() + 60_000);
    await records.updateOne({ key: 'crash-3' }, { $set: { owner: 'another-process', lease_until: lease } });
    const busy = await post(suite.harness.app, '/objects', body, 'crash-3').expect(409);
    assert.equal(busy.body.code, 'conflict');
    assert.match(busy.body.message, /Idempotency-Key 'crash-3'/);
    assert.ok(Number(busy.headers['retry-after']) >= 1);
    await records.updateOne({ key: 'crash-3' }, { $set: { lease_until: new Date(Date.now() - 1) } });
    const res = await post(suite.harness.app, '/objects', body, 'crash-3').expect(200);
    await assertOneObjectInStep('Elsewhere', res.body.object.id as string);
  });

  it('a retry while the first request is still running is 409 conflict with Retry-After', async () => {
    let reached!: () => void;
    const atInsert = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const db = interceptWrites(suite.harness.db, async (call) => {
      if (call.collection !== 'objects' || call.method !== 'insertOne') return;
      reached();
      await held;
    });
    const slow = createApp({
      config: suite.harness.config,
      db,
      log: (m) => suite.harness.errors.push(m),
      events: suite.harness.writes.events,
    });
    const body = { title: 'In flight', type: 'posts' };
    const first = post(slow, '/objects', body, 'flight').then((r) => r);
    await atInsert;
    const busy = await post(suite.harness.app, '/objects', body, 'flight').expect(409);
    assert.equal(busy.body.code, 'conflict');
    assert.ok(Number(busy.headers['retry-after']) >= 1);
    release();
    const done = await first;
    assert.equal(done.status, 200);
    const again = await post(suite.harness.app, '/objects', body, 'flight').expect(200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.text, done.text);
    assert.equal(await objectsCollection(suite.harness.db).countDocuments({ title: 'In flight' }), 1);
  });
});
