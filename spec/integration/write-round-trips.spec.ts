import assert from 'node:assert/strict';
import type { CommandStartedEvent } from 'mongodb';
import type { BucketApi } from '../support/bucket-suite.js';
import { bucketClient } from '../support/client.js';
import { isGateCommand } from '../support/command-operators.js';
import { freshHarness, type Harness } from '../support/harness.js';

/**
 * The database commands each kind of request sends, counted with the driver's command
 * monitoring: a count, not a time, so no change adds round trips to a write or a read quietly.
 * Every count is taken in the steady state (the Bucket's types and validators already read once).
 */
describe('round trips per request', () => {
  let h: Harness;
  let api: BucketApi;
  let draftId = '';
  let postId = '';

  before(async () => {
    h = await freshHarness();
    api = bucketClient(h.app, await h.bucket('trips'));
    await api
      .post('/object-types', {
        title: 'Posts',
        metafields: [{ type: 'text', title: 'Headline', key: 'headline', value: '' }],
      })
      .expect(200);
    // Warm the per-generation caches the way any running service has them.
    postId = (await api.post('/objects', { title: 'First', type: 'posts', metadata: { headline: 'a' } }).expect(200))
      .body.object.id;
    await api.patch(`/objects/${postId}`, { metadata: { headline: 'b' } }).expect(200);
    draftId = (await api.post('/objects', { title: 'Draft', type: 'posts', status: 'draft' }).expect(200)).body.object
      .id;
  });

  /** "commandName collection" for every command `send` caused, in order. */
  async function commandsOf(send: () => Promise<unknown>): Promise<string[]> {
    const commands: string[] = [];
    const listener = (e: CommandStartedEvent) => {
      if (!isGateCommand(e)) commands.push(`${e.commandName} ${String(e.command[e.commandName])}`);
    };
    h.client.on('commandStarted', listener);
    try {
      await send();
    } finally {
      h.client.off('commandStarted', listener);
    }
    return commands;
  }

  function within(commands: string[], limit: number): void {
    assert.ok(
      commands.length <= limit,
      `${String(commands.length)} commands, at most ${String(limit)}:\n${commands.join('\n')}`,
    );
  }

  it('creates an Object in at most 4', async () => {
    within(
      await commandsOf(() =>
        api.post('/objects', { title: 'Second', type: 'posts', metadata: { headline: 'c' } }).expect(200),
      ),
      4,
    );
  });

  it('edits one Metafield (PATCH) in at most 4', async () => {
    within(await commandsOf(() => api.patch(`/objects/${postId}`, { metadata: { headline: 'd' } }).expect(200)), 4);
  });

  it('publishes a draft in at most 4', async () => {
    within(await commandsOf(() => api.patch(`/objects/${draftId}`, { status: 'published' }).expect(200)), 4);
  });

  it('lists uncached in at most 3', async () => {
    within(
      await commandsOf(() => api.get('/objects?query=%7B%22type%22%3A%22posts%22%7D&useCache=false').expect(200)),
      3,
    );
  });

  it('gets one Object in at most 2', async () => {
    within(await commandsOf(() => api.get(`/objects/${postId}?useCache=false`).expect(200)), 2);
  });
});
