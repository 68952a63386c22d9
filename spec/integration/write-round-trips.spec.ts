import assert from 'node:assert/strict';
import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent } from 'mongodb';
import { isGateCommand } from '../support/command-operators.js';
import { commandLabel, withoutBulkWrite } from '../support/bulk-write-ops.js';
import type { RequestListener } from 'node:http';
import { createApp } from '../../lib/app.js';
import { PutOffWork } from '../../lib/http/respond.js';
import { bucketsCollection, objectsCollection, writeNotesCollection } from '../../lib/db/collections.js';
import { deleteBucket } from '../../lib/buckets/buckets.js';
import { Scheduler } from '../../lib/scheduling/scheduler.js';
import { bucketClient } from '../support/client.js';
import { BucketSuite, COUNTING_COMMANDS, type BucketApi } from '../support/bucket-suite.js';
import { account, PASSWORD_WORK_TIMEOUT_MS, tokenOf } from '../support/accounts.js';

/**
 * The database commands each kind of request sends, counted with the driver's command
 * monitoring: a count, not a time, so no change adds round trips to a write or a read quietly.
 * Every count is taken in the steady state (the Bucket's types and validators already read once).
 */
describe('round trips per request', () => {
  let draftId = '';
  let postId = '';

  const suite = new BucketSuite(
    'trips',
    async () => {
      await suite.api
        .post('/object-types', {
          title: 'Posts',
          metafields: [{ type: 'text', title: 'Headline', key: 'headline', value: '' }],
        })
        .expect(200);
      // Warm the per-generation caches the way any running service has them.
      postId = (
        await suite.api.post('/objects', { title: 'First', type: 'posts', metadata: { headline: 'a' } }).expect(200)
      ).body.object.id;
      await suite.api.patch(`/objects/${postId}`, { metadata: { headline: 'b' } }).expect(200);
      draftId = (await suite.api.post('/objects', { title: 'Draft', type: 'posts', status: 'draft' }).expect(200)).body
        .object.id;
    },
    COUNTING_COMMANDS,
  );

  interface Trips {
    /** "commandName collection" of every command, sorted: parallel ones start in no fixed order. */
    commands: string[];
    /** Commands sent while none was in flight, before the answer was sent: the rounds the client waits for. */
    rounds: number;
    /** Commands sent after the answer (work the request put off). */
    after: string[];
    /** The commands of the first round, sorted. */
    firstRound: string[];
  }

  /**
   * The commands `send` caused (through `api`, an app that notes when it has answered) and how many
   * rounds the answer waited for; the work the request put off until after its answer is waited
   * for (the harness's `settled`) and counted apart.
   */
  async function tripsOf(
    send: (api: BucketApi) => Promise<unknown>,
    app: RequestListener = suite.harness.app,
    keys = suite.keys,
  ): Promise<Trips> {
    const commands: string[] = [];
    const after: string[] = [];
    const firstRound: string[] = [];
    const inFlight = new Set<number>();
    let rounds = 0;
    let answered = false;
    const started = (e: CommandStartedEvent) => {
      if (isGateCommand(e)) return;
      const name = commandLabel(e);
      commands.push(name);
      if (answered) after.push(name);
      else if (inFlight.size === 0) rounds++;
      if (rounds === 1 && !answered) firstRound.push(name);
      inFlight.add(e.requestId);
    };
    const done = (e: CommandSucceededEvent | CommandFailedEvent) => {
      inFlight.delete(e.requestId);
    };
    const noting: RequestListener = (req, res) => {
      res.once('finish', () => (answered = true));
      app(req, res);
    };
    // Enough open connections for the widest wave, so none of its commands waits for a new one.
    await Promise.all(Array.from({ length: 8 }, () => suite.harness.client.db('admin').command({ ping: 1 })));
    suite.harness.client.on('commandStarted', started);
    suite.harness.client.on('commandSucceeded', done);
    suite.harness.client.on('commandFailed', done);
    try {
      await send(bucketClient(noting, keys));
      await suite.harness.settled();
    } finally {
      suite.harness.client.off('commandStarted', started);
      suite.harness.client.off('commandSucceeded', done);
      suite.harness.client.off('commandFailed', done);
    }
    return { commands: commands.sort(), rounds, after, firstRound: firstRound.sort() };
  }

  /**
   * What every version write sends after its commit, in one ordered bulkWrite (the test engine
   * has MongoDB 8.0's command): live copy, revision, then the write's note and the bump (once the
   * views hold the version), then the clear of the work the Object carried, which the server
   * applies only once the others are done. The event reads no webhooks (they are kept by the
   * Bucket's webhook generation) and queues no delivery (the Bucket has none).
   */
  const FOLLOW_UPS =
    'bulkWrite [update published_objects, insert revisions, insert change_events, update write_notes, update buckets, update objects]';

  /**
   * A write with the write key takes the Bucket as the app last read it, and its command checks
   * first that the Bucket is still so (lib/cache/bucket-generation.ts): a write that changes
   * nothing where it matches, and fails, stopping the batch, where it does not.
   */
  const CHECK = 'update buckets';

  it('creates an Object in 2 commands and 1 round: the plan slot beside the Bucket check, the insert and its follow-ups', async () => {
    const trips = await tripsOf((api) =>
      api.post('/objects', { title: 'Second', type: 'posts', metadata: { headline: 'c' } }).expect(200),
    );
    const create = `bulkWrite [${CHECK}, insert objects, ${FOLLOW_UPS.slice('bulkWrite ['.length)}`;
    assert.deepEqual(trips.commands, ['update bucket_usage', create].sort());
    assert.equal(trips.rounds, 1, JSON.stringify(trips));
    assert.deepEqual(trips.after, [], 'nothing is left for after the answer');
  });

  /**
   * An edit's commit goes first in the same ordered bulkWrite: an upsert over the version read
   * that fails (and so stops the batch) where another version, or none, is in place.
   */
  const EDIT = `bulkWrite [${CHECK}, update objects, ${FOLLOW_UPS.slice('bulkWrite ['.length)}`;

  /** An Object this app has not written since it was made: its edit reads it first. */
  let elsewhere: { app: RequestListener; putOff: PutOffWork } | undefined;

  /**
   * An Object another process (an app of its own on the same database) created: this app holds
   * no version of it, so its first edit here reads it. Its put-off work is done before it returns.
   */
  const unedited = async (body: Record<string, unknown> = {}) => {
    const h = suite.harness;
    if (!elsewhere) {
      const putOff = new PutOffWork((m) => h.errors.push(m));
      elsewhere = { app: createApp({ config: h.config, db: h.db, log: (m) => h.errors.push(m), putOff }), putOff };
    }
    const res = await bucketClient(elsewhere.app, suite.keys)
      .post('/objects', { title: 'Unedited', type: 'posts', ...body })
      .expect(200);
    await elsewhere.putOff.idle();
    return String(res.body.object.id);
  };

  it('edits one Metafield (PATCH) in 2 commands and 2 rounds: the current version, then the Bucket check, commit and follow-ups', async () => {
    const id = await unedited();
    const trips = await tripsOf((api) => api.patch(`/objects/${id}`, { metadata: { headline: 'd' } }).expect(200));
    assert.deepEqual(trips.commands, ['find objects', EDIT].sort());
    assert.equal(trips.rounds, 2, JSON.stringify(trips));
    assert.deepEqual(trips.after, []);
  });

  it('publishes a draft it created in 1 command and 1 round: the version it inserted stands in for the read', async () => {
    const trips = await tripsOf((api) => api.patch(`/objects/${draftId}`, { status: 'published' }).expect(200));
    assert.deepEqual(trips.commands, [EDIT]);
    assert.equal(trips.rounds, 1, JSON.stringify(trips));
    assert.equal((await suite.api.get(`/objects/${draftId}`).expect(200)).body.object.status, 'published');
  });

  it('edits an Object again in 1 command and 1 round: the version the app wrote stands in for the read', async () => {
    const first = await tripsOf((api) => api.patch(`/objects/${postId}`, { metadata: { headline: 'd1' } }).expect(200));
    assert.deepEqual(first.commands, [EDIT], 'the setup edited it already');
    const again = await tripsOf((api) => api.patch(`/objects/${postId}`, { title: 'Again' }).expect(200));
    assert.deepEqual(again.commands, [EDIT]);
    assert.equal(again.rounds, 1, JSON.stringify(again));
    assert.deepEqual(again.after, []);
    const stored = (await suite.api.get(`/objects/${postId}?status=any`).expect(200)).body.object;
    assert.equal(stored.title, 'Again');
    assert.equal(stored.metadata.headline, 'd1');
  });

  it('publishes a draft in 2 commands and 2 rounds', async () => {
    const id = await unedited({ status: 'draft' });
    const trips = await tripsOf((api) => api.patch(`/objects/${id}`, { status: 'published' }).expect(200));
    assert.deepEqual(trips.commands, ['find objects', EDIT].sort());
    assert.equal(trips.rounds, 2, JSON.stringify(trips));
    assert.deepEqual(trips.after, []);
  });

  it('answers a PATCH of an unknown Object 404 once the Bucket, read again, says the same: 2 commands and 2 rounds', async () => {
    const trips = await tripsOf((api) =>
      api.patch('/objects/0123456789abcdef01234567', { title: 'x' }).expect(404, /0123456789abcdef01234567/),
    );
    assert.deepEqual(trips.commands, ['find buckets', 'find objects']);
    assert.deepEqual(trips.firstRound, ['find objects'], 'the Object is read first, under the remembered Bucket');
    assert.equal(trips.rounds, 2, JSON.stringify(trips));
  });

  it('answers a PATCH with another key 401 from the Bucket read alone: no Object read beside it', async () => {
    await tripsOf((api) => api.patch(`/objects/${postId}`, { title: 'Known slug' }).expect(200));
    const id = await unedited();
    for (const key of [suite.keys.read_key, 'not-a-key', null]) {
      const trips = await tripsOf(
        (api) => api.patch(`/objects/${id}`, { title: 'Refused' }).expect(401),
        suite.harness.app,
        { ...suite.keys, write_key: key },
      );
      assert.deepEqual(trips.commands, ['find buckets'], String(key));
    }
    const allowed = await tripsOf((api) => api.patch(`/objects/${id}`, { title: 'Allowed' }).expect(200));
    assert.deepEqual(allowed.firstRound, ['find objects']);
  });

  it('reads the Object first only once the app knows the Bucket, from an earlier request', async () => {
    const id = await unedited();
    const warm = await tripsOf((api) => api.patch(`/objects/${id}`, { title: 'Warm' }).expect(200));
    assert.deepEqual(warm.firstRound, ['find objects']);
    const fresh = createApp({
      config: suite.harness.config,
      db: suite.harness.db,
      log: (m) => suite.harness.errors.push(m),
    });
    const first = await tripsOf((api) => api.patch(`/objects/${postId}`, { title: 'Cold' }).expect(200), fresh);
    assert.deepEqual(first.firstRound, ['find buckets']);
    assert.ok(first.commands.includes('find objects'), JSON.stringify(first));
    const second = await tripsOf((api) => api.patch(`/objects/${id}`, { title: 'Known' }).expect(200), fresh);
    assert.deepEqual(second.firstRound, ['find objects']);
    // Now the app holds the version it wrote: its next edit reads nothing.
    const third = await tripsOf((api) => api.patch(`/objects/${postId}`, { title: 'Held' }).expect(200), fresh);
    assert.deepEqual(third.firstRound, [EDIT]);
  });

  it('runs a write again on the Bucket read afresh when the slug names another Bucket now (deleted and made again)', async () => {
    const h = suite.harness;
    // Another app (another process) makes the second Bucket, so this app last read the first.
    const other = createApp({ config: h.config, db: h.db, log: (m) => h.errors.push(m) });
    // Made again with the same write key, so the app's guess would let the write go on.
    const makeOne = async (app: RequestListener) => {
      const keys = await h.bucket('again', { kind: 'generate' }, { kind: 'given', key: 'the-same-write-key' });
      const setup = bucketClient(app, keys);
      await setup.post('/object-types', { title: 'Notes', metafields: [] }).expect(200);
      const id = String((await setup.post('/objects', { title: 'Note', type: 'notes' }).expect(200)).body.object.id);
      return { api: bucketClient(h.app, keys), id };
    };
    const old = await makeOne(h.app);
    await old.api.patch(`/objects/${old.id}`, { title: 'Known' }).expect(200);
    const oldBucket = (await bucketsCollection(h.db).findOne({ slug: 'again' }))!._id;
    assert.ok((await writeNotesCollection(h.db).countDocuments({ bucket_id: oldBucket })) > 0);
    await deleteBucket(h.db, 'again');
    assert.equal(
      await writeNotesCollection(h.db).countDocuments({ bucket_id: oldBucket }),
      0,
      'its write notes go too',
    );
    const now = await makeOne(other);
    // The app remembers the deleted Bucket: its Object read finds nothing, and the 404 that
    // would give is not answered, since the Bucket read again is another.
    const trips = await tripsOf(() => now.api.patch(`/objects/${now.id}`, { title: 'Edited' }).expect(200));
    assert.deepEqual(trips.firstRound, ['find objects']);
    assert.equal(trips.commands.filter((c) => c === 'find buckets').length, 1, JSON.stringify(trips));
    assert.equal(trips.commands.filter((c) => c === 'find objects').length, 2, JSON.stringify(trips));
    assert.equal((await now.api.get(`/objects/${now.id}?status=any`).expect(200)).body.object.title, 'Edited');
    // The old Object went with its Bucket (the key is the same, so the request gets that far).
    await old.api.patch(`/objects/${old.id}`, { title: 'Gone' }).expect(404);
    // The Bucket known, and the version this app wrote held: no read at all.
    const known = await tripsOf(() => now.api.patch(`/objects/${now.id}`, { title: 'Again' }).expect(200));
    assert.deepEqual(
      known.commands.filter((c) => c.startsWith('find')),
      [],
      JSON.stringify(known),
    );
  });

  it('sends a draft edit’s follow-ups without a live copy', async () => {
    const trips = await tripsOf((api) =>
      api.patch(`/objects/${draftId}`, { title: 'Draft 2', status: 'draft' }).expect(200),
    );
    assert.ok(
      trips.commands.includes(
        `bulkWrite [${CHECK}, update objects, insert revisions, insert change_events, update write_notes, update buckets, update objects]`,
      ),
      JSON.stringify(trips),
    );
  });

  it('leaves no carried work behind once the answer’s put-off work ran', async () => {
    assert.equal(await objectsCollection(suite.harness.db).countDocuments({ pending: { $exists: true } }), 0);
  });

  it('deletes an Object in 2 commands and 2 rounds: the Object (its carried work checked as read), then the Bucket check and its delete in one bulkWrite', async () => {
    const id = String(
      (await suite.api.post('/objects', { title: 'Doomed', type: 'posts' }).expect(200)).body.object.id,
    );
    await suite.harness.settled();
    const trips = await tripsOf((api) => api.delete(`/objects/${id}`).expect(200));
    // The claim (the commit point) first, the Object itself after its views, the count last.
    const batch = [
      CHECK,
      'update objects',
      'delete published_objects',
      'delete revisions',
      'delete objects',
      'update write_notes',
      'update buckets',
      'update bucket_usage',
    ];
    assert.deepEqual(trips.commands, ['find objects', `bulkWrite [${batch.join(', ')}]`].sort());
    assert.equal(trips.rounds, 2, JSON.stringify(trips));
    await suite.api.get(`/objects/${id}?status=any`).expect(404);
  });

  it('lists uncached in 2 commands: Bucket, page (the total from the page)', async () => {
    const trips = await tripsOf((api) =>
      api.get('/objects?query=%7B%22type%22%3A%22posts%22%7D&useCache=false').expect(200),
    );
    assert.deepEqual(trips.commands, ['find buckets', 'find published_objects']);
    assert.deepEqual(trips.after, []);
  });

  it('gets one Object in 2 commands: Bucket, Object', async () => {
    const trips = await tripsOf((api) => api.get(`/objects/${postId}?useCache=false`).expect(200));
    assert.deepEqual(trips.commands, ['find buckets', 'find published_objects']);
  });

  it('reads an account’s membership beside its Bucket: a get or a PATCH with a token waits for 3 rounds', async function () {
    this.timeout(PASSWORD_WORK_TIMEOUT_MS);
    await account(suite.harness, 'trips-admin@example.com', suite.keys.slug);
    const token = await tokenOf(suite.harness, 'trips-admin@example.com');
    const keys = { ...suite.keys, read_key: null, write_key: token };
    const get = (api: BucketApi) =>
      api.get(`/objects/${postId}?useCache=false`).set('Authorization', `Bearer ${token}`).expect(200);
    await tripsOf(get, suite.harness.app, keys);
    const got = await tripsOf(get, suite.harness.app, keys);
    // The token's account first; then the Bucket and the membership at once; then the Object.
    assert.deepEqual(got.commands, ['find accounts', 'find bucket_users', 'find buckets', 'find published_objects']);
    assert.deepEqual(got.firstRound, ['find accounts']);
    assert.equal(got.rounds, 3, JSON.stringify(got));
    const edit = (api: BucketApi) => api.patch(`/objects/${postId}`, { title: 'By token' }).expect(200);
    // Another app edited the Object last (above): this one reads it once, and holds what it wrote.
    await tripsOf(edit, suite.harness.app, keys);
    const edited = await tripsOf(edit, suite.harness.app, keys);
    const commit = `bulkWrite [update objects, ${FOLLOW_UPS.slice('bulkWrite ['.length)}`;
    // The Object as this app last wrote it: no read of it.
    assert.deepEqual(edited.commands, ['find accounts', 'find bucket_users', 'find buckets', commit].sort());
    assert.equal(edited.rounds, 3, JSON.stringify(edited));
  });

  it('publishes a scheduled Object with its claim, the Bucket for the event, and one bulkWrite', async () => {
    const id = String(
      (
        await suite.api
          .post('/objects', { title: 'Scheduled', type: 'posts', publish_at: Date.now() + 3600_000 })
          .expect(200)
      ).body.object.id,
    );
    await suite.harness.settled();
    const due = () => new Date(Date.now() + 2 * 3600_000);
    const trips = await tripsOf(async () => {
      assert.equal(await new Scheduler(suite.harness.writes, { intervalMs: 0, now: due }).tick(), 1);
    });
    // The event renders with the Bucket, read by id; the claims that find nothing end the tick.
    const published = trips.commands.filter((c) => c !== 'findAndModify objects' && c !== 'find buckets');
    assert.deepEqual(published, [`bulkWrite [update objects, ${FOLLOW_UPS.slice('bulkWrite ['.length)}`]);
    assert.equal(trips.commands.filter((c) => c === 'find buckets').length, 1, JSON.stringify(trips));
    // Its claim, then one per job that finds nothing due.
    assert.equal(trips.commands.filter((c) => c === 'findAndModify objects').length, 3, JSON.stringify(trips));
    await suite.api.get(`/objects/${id}`).expect(200);
  });

  /** The commands a type delete of `count` Objects (with trigger_webhook, so each has its event) sends. */
  async function typeDeleteCommands(slug: string, count: number): Promise<string[]> {
    await suite.api.post('/object-types', { title: slug, slug }).expect(200);
    for (let i = 0; i < count; i += 20)
      await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          suite.api.post('/objects', { title: `${slug} ${i + j}`, type: slug }).expect(200),
        ),
      );
    const trips = await tripsOf((api) => api.delete(`/object-types/${slug}?trigger_webhook=true`).expect(200));
    assert.equal(await objectsCollection(suite.harness.db).countDocuments({ type: slug }), 0);
    // The types changed: warm the caches again for the counts of the tests after this one.
    await suite.api.patch(`/objects/${postId}`, { metadata: { headline: slug } }).expect(200);
    return trips.commands;
  }

  it('deletes a type of 120 Objects in a few commands, not a few per Object: claims, read back, then each step of their finishing at once', async () => {
    const commands = await typeDeleteCommands('bulk-gone', 120);
    assert.ok(commands.length <= 30, `${commands.length} commands`);
  });

  describe('on a server without bulkWrite (before MongoDB 8.0)', () => {
    withoutBulkWrite(() => suite.harness.db);

    it('edits in 8 commands and 4 rounds: the follow-ups one each (the change feed’s event among them), the bump after the views, the clear after the answer', async () => {
      const id = await unedited();
      const trips = await tripsOf((api) => api.patch(`/objects/${id}`, { metadata: { headline: 'e' } }).expect(200));
      const followUps = ['insert change_events', 'insert revisions', 'update buckets', 'update published_objects'];
      const expected = ['find buckets', 'find objects', 'update objects', ...followUps, 'update objects'];
      assert.deepEqual(trips.commands, expected.sort());
      // Live copy and revision at once, then the bump, so no reader sees the new generation before the version.
      assert.equal(trips.rounds, 4, JSON.stringify(trips));
      assert.deepEqual(trips.after, ['update objects'], 'the clear of the carried work follows the answer');
      assert.equal(await objectsCollection(suite.harness.db).countDocuments({ pending: { $exists: true } }), 0);
      // Again: the version it wrote stands in for the read (once its clear is done, as here).
      const again = await tripsOf((api) => api.patch(`/objects/${id}`, { title: 'Again' }).expect(200));
      assert.deepEqual(again.commands, expected.filter((c) => c !== 'find objects').sort());
    });

    it('deletes a type of 120 Objects in a few commands: each step of the finishing one command per collection', async () => {
      const commands = await typeDeleteCommands('apart-gone', 120);
      assert.ok(commands.length <= 30, `${commands.length} commands`);
    });
  });
});
