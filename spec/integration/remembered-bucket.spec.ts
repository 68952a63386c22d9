import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { MongoNetworkError, type CommandStartedEvent } from 'mongodb';
import { createApp } from '../../lib/app.js';
import { deleteBucket, rotateKeys } from '../../lib/buckets/buckets.js';
import { setPlan } from '../../lib/buckets/plans.js';
import { bucketsCollection, objectsCollection } from '../../lib/db/collections.js';
import { deliveriesCollection } from '../../lib/store/webhooks.js';
import { commandLabel } from '../support/bulk-write-ops.js';
import { interceptWrites } from '../support/intercept-writes.js';
import { isGateCommand } from '../support/command-operators.js';
import { bucketClient } from '../support/client.js';
import { BucketSuite, COUNTING_COMMANDS, type BucketApi } from '../support/bucket-suite.js';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';

/**
 * An Object write with the write key takes its Bucket as the app last read it, and its command
 * checks first that the Bucket is still so (lib/cache/bucket-generation.ts). Here the Bucket
 * changes through another app (another process, which this app hears nothing from) between two
 * writes of this app: each write must act on the Bucket as it is, never as remembered.
 */
describe('a Bucket taken from memory by a write', () => {
  const suite = new BucketSuite(
    'memory',
    async (api) => {
      await api
        .post('/object-types', {
          title: 'Posts',
          metafields: [{ type: 'text', title: 'Headline', key: 'headline', value: '' }],
        })
        .expect(200);
    },
    COUNTING_COMMANDS,
  );

  /** Another process on the same database: what it changes, this app only learns from the database. */
  let other: RequestListener;
  /** This app's client for the suite's Bucket, and its keys (rotated by a test). */
  let api: BucketApi;
  let keys: IssuedKeys;
  let id = '';

  before(() => {
    const h = suite.harness;
    other = createApp({ config: h.config, db: h.db, log: (m) => h.errors.push(m) });
    api = suite.api;
    keys = suite.keys;
  });

  /** Writes once, so the app remembers the Bucket as it is now. */
  beforeEach(async () => {
    id = String((await api.post('/objects', { title: 'Known', type: 'posts' }).expect(200)).body.object.id);
    await api.patch(`/objects/${id}`, { metadata: { headline: 'remembered' } }).expect(200);
  });

  /** The commands `send` caused, in order sent. */
  async function commandsOf(send: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const started = (e: CommandStartedEvent) => {
      if (!isGateCommand(e)) seen.push(commandLabel(e));
    };
    const { client } = suite.harness;
    client.on('commandStarted', started);
    try {
      await send();
      await suite.harness.settled();
    } finally {
      client.off('commandStarted', started);
    }
    return seen;
  }

  it('takes a Metafield another process just added, which the remembered type lacks', async () => {
    await bucketClient(other, keys)
      .patch('/object-types/posts', {
        metafields: [
          { type: 'text', title: 'Headline', key: 'headline', value: '' },
          { type: 'number', title: 'Score', key: 'score', value: '' },
        ],
      })
      .expect(200);
    const commands = await commandsOf(() => api.patch(`/objects/${id}`, { metadata: { score: 7 } }).expect(200));
    const object = await objectsCollection(suite.harness.db).findOne({ title: 'Known', 'metadata.score': 7 });
    assert.ok(object, 'the edit used the new Metafield');
    // Refused on the remembered type, the request ran again on the Bucket read afresh.
    assert.equal(commands.filter((c) => c === 'find buckets').length, 1, JSON.stringify(commands));
    assert.equal(commands.filter((c) => c.startsWith('bulkWrite')).length, 1, JSON.stringify(commands));
  });

  it('runs an edit again when its command stopped at the Bucket check: nothing of the first attempt is written', async () => {
    await bucketClient(other, keys)
      .post('/object-types', { title: `Notes ${id}`, metafields: [] })
      .expect(200);
    const commands = await commandsOf(() => api.patch(`/objects/${id}`, { title: 'Checked' }).expect(200));
    const edit = (c: string) => c.includes('update objects, update published_objects, insert revisions');
    const checked = (c: string) => (c.startsWith('bulkWrite [update buckets, ') ? 'checked ' : '');
    // The first attempt edits the version this app wrote last (lib/objects/write/version-memo.ts).
    // The second attempt's Bucket was read by the request: no check, and the types of its new
    // generation; the version kept under the old generation is not used, the Object is read.
    assert.deepEqual(
      commands.map((c) => (edit(c) ? `${checked(c)}edit` : c)),
      ['checked edit', 'find buckets', 'find objects', 'find object_types', 'edit'],
    );
    const revisions = await api.get(`/objects/${id}/revisions`).expect(200);
    assert.deepEqual(
      revisions.body.revisions.map((r: { title: string }) => r.title),
      ['Checked', 'Known', 'Known'],
      'one revision per write that happened',
    );
  });

  it('refuses the old write key once another process rotated the keys, writing nothing', async () => {
    const before = await objectsCollection(suite.harness.db).findOne({
      title: 'Known',
      'metadata.headline': 'remembered',
    });
    const keyed = () => api.post('/objects', { title: 'Keyed', type: 'posts' }).set('Idempotency-Key', 'rotation');
    await keyed().expect(200);
    const rotated = await rotateKeys(suite.harness.db, keys.slug);
    // A kept answer replays without a write: such a request reads the Bucket, and its key is refused.
    await keyed().expect(401);
    const refused = await api.patch(`/objects/${id}`, { metadata: { headline: 'stale key' } }).expect(401);
    assert.match(refused.body.message, /write access key/);
    await api.post('/objects', { title: 'Stale', type: 'posts' }).expect(401);
    await api.delete(`/objects/${id}`).expect(401);
    const after = await objectsCollection(suite.harness.db).findOne({ _id: before!._id });
    assert.deepEqual(after?.modified_at, before?.modified_at, 'the Object is as it was');
    assert.equal(await objectsCollection(suite.harness.db).countDocuments({ title: 'Stale' }), 0);
    // The new key writes; the suite goes on with it.
    keys = { ...keys, ...rotated };
    api = bucketClient(suite.harness.app, keys);
    await api.patch(`/objects/${id}`, { metadata: { headline: 'new key' } }).expect(200);
  });

  it('queues the event for a webhook another process just added', async () => {
    const elsewhere = bucketClient(other, keys);
    await elsewhere
      .post('/webhooks', { endpoint: 'https://hooks.example.com/in', events: ['object.edited'] })
      .expect(200);
    await api.patch(`/objects/${id}`, { title: 'Heard' }).expect(200);
    const queued = await deliveriesCollection(suite.harness.db).countDocuments({});
    assert.equal(queued, 1, 'the edit’s event has its delivery');
  });

  it('refuses a create past a plan limit another process just set', async () => {
    const { db } = suite.harness;
    const held = await objectsCollection(db).countDocuments({ bucket_id: (await bucketOfSuite())._id });
    await setPlan(db, suite.keys.slug, { max_objects: held });
    const refused = await api.post('/objects', { title: 'Over', type: 'posts' }).expect(402);
    assert.match(refused.body.message, /max_objects/);
    await setPlan(db, suite.keys.slug, { max_objects: 'default' });
    await api.post('/objects', { title: 'Under', type: 'posts' }).expect(200);
  });

  it('answers 404 for a Bucket another process deleted, and writes nothing', async () => {
    const h = suite.harness;
    const keys = await h.bucket('memory-gone');
    const doomed = bucketClient(h.app, keys);
    await doomed.post('/object-types', { title: 'Notes', metafields: [] }).expect(200);
    const note = String((await doomed.post('/objects', { title: 'Note', type: 'notes' }).expect(200)).body.object.id);
    await deleteBucket(h.db, 'memory-gone');
    await doomed.patch(`/objects/${note}`, { title: 'After' }).expect(404, /memory-gone/);
    await doomed.post('/objects', { title: 'After', type: 'notes' }).expect(404, /memory-gone/);
    assert.equal(await objectsCollection(h.db).countDocuments({ title: 'After' }), 0);
  });

  it('answers the failure, not a second attempt, when a write fails after its command applied (a 404 would hide the delete)', async () => {
    const h = suite.harness;
    // The database goes away after applying the delete's command, before answering; meanwhile
    // another process changes the Bucket (a media upload bumps its generation).
    let armed = false;
    const failing = interceptWrites(h.db, async ({ collection }) => {
      // The delete's last write: the plan's count.
      if (!armed || collection !== 'bucket_usage') return;
      armed = false;
      await bucketsCollection(h.db).updateOne({ slug: keys.slug }, { $inc: { generation: 1 } });
      throw new MongoNetworkError('connection reset after the write');
    });
    const dying = createApp({ config: h.config, db: failing, log: (m) => h.errors.push(m) });
    const client = bucketClient(dying, keys);
    // The app remembers the Bucket from its first write.
    const doomed = String(
      (await client.post('/objects', { title: 'Doomed', type: 'posts' }).expect(200)).body.object.id,
    );
    const errors = h.errors.length;
    armed = true;
    const answer = await client.delete(`/objects/${doomed}`);
    assert.equal(answer.status, 503, answer.text);
    h.errors.splice(errors);
    assert.equal(await objectsCollection(h.db).countDocuments({ title: 'Doomed' }), 0, 'the delete happened');
    await api.get(`/objects/${doomed}`).expect(404);
  });

  async function bucketOfSuite() {
    const bucket = await bucketsCollection(suite.harness.db).findOne({ slug: suite.keys.slug });
    assert.ok(bucket);
    return bucket;
  }
});
