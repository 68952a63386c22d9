import assert from 'node:assert/strict';
import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent } from 'mongodb';
import { isGateCommand } from '../support/command-operators.js';
import { BucketSuite } from '../support/bucket-suite.js';

/**
 * The database commands each kind of request sends, counted with the driver's command
 * monitoring: a count, not a time, so no change adds round trips to a write or a read quietly.
 * Every count is taken in the steady state (the Bucket's types and validators already read once).
 */
describe('round trips per request', () => {
  let draftId = '';
  let postId = '';

  const suite = new BucketSuite('trips', async () => {
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
  });

  interface Trips {
    /** "commandName collection" of every command, sorted: parallel ones start in no fixed order. */
    commands: string[];
    /** Commands sent while none was in flight: the round trips one after another. */
    rounds: number;
  }

  /** The commands `send` caused and how many rounds they took. */
  async function tripsOf(send: () => Promise<unknown>): Promise<Trips> {
    const commands: string[] = [];
    const inFlight = new Set<number>();
    let rounds = 0;
    const started = (e: CommandStartedEvent) => {
      if (isGateCommand(e)) return;
      commands.push(`${e.commandName} ${String(e.command[e.commandName])}`);
      if (inFlight.size === 0) rounds++;
      inFlight.add(e.requestId);
    };
    const ended = (e: CommandSucceededEvent | CommandFailedEvent) => inFlight.delete(e.requestId);
    suite.harness.client.on('commandStarted', started);
    suite.harness.client.on('commandSucceeded', ended);
    suite.harness.client.on('commandFailed', ended);
    try {
      await send();
    } finally {
      suite.harness.client.off('commandStarted', started);
      suite.harness.client.off('commandSucceeded', ended);
      suite.harness.client.off('commandFailed', ended);
    }
    return { commands: commands.sort(), rounds };
  }

  /**
   * What every version write sends after its commit: live copy, revision and bump together (the
   * event reads no webhooks: they are kept by the Bucket's webhook generation), then the clear.
   */
  const FOLLOW_UPS = ['insert revisions', 'update buckets', 'update objects', 'update published_objects'];

  it('creates an Object in 7 commands, 4 rounds: Bucket, plan slot beside the insert, follow-ups, clear', async () => {
    const trips = await tripsOf(() =>
      suite.api.post('/objects', { title: 'Second', type: 'posts', metadata: { headline: 'c' } }).expect(200),
    );
    assert.deepEqual(trips.commands, ['find buckets', 'insert objects', 'update bucket_usage', ...FOLLOW_UPS].sort());
    assert.equal(trips.rounds, 4);
  });

  it('edits one Metafield (PATCH) in 7 commands, 5 rounds: Bucket, current version, commit, follow-ups, clear', async () => {
    const trips = await tripsOf(() =>
      suite.api.patch(`/objects/${postId}`, { metadata: { headline: 'd' } }).expect(200),
    );
    assert.deepEqual(trips.commands, ['find buckets', 'find objects', 'update objects', ...FOLLOW_UPS].sort());
    assert.equal(trips.rounds, 5);
  });

  it('publishes a draft in 7 commands, 5 rounds', async () => {
    const trips = await tripsOf(() => suite.api.patch(`/objects/${draftId}`, { status: 'published' }).expect(200));
    assert.deepEqual(trips.commands, ['find buckets', 'find objects', 'update objects', ...FOLLOW_UPS].sort());
    assert.equal(trips.rounds, 5);
  });

  it('lists uncached in 2 commands: Bucket, page (the total from the page)', async () => {
    const trips = await tripsOf(() =>
      suite.api.get('/objects?query=%7B%22type%22%3A%22posts%22%7D&useCache=false').expect(200),
    );
    assert.deepEqual(trips.commands, ['find buckets', 'find published_objects']);
  });

  it('gets one Object in 2 commands: Bucket, Object', async () => {
    const trips = await tripsOf(() => suite.api.get(`/objects/${postId}?useCache=false`).expect(200));
    assert.deepEqual(trips.commands, ['find buckets', 'find published_objects']);
  });
});
