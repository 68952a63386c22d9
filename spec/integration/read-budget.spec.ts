import assert from 'node:assert/strict';
import { BSON, type CommandStartedEvent } from 'mongodb';
import { ResponseTooLargeError } from '../../lib/errors/domain-limits.js';
import { ByteBudget, readWithin } from '../../lib/query/read-budget.js';
import { freshHarness, type Harness } from '../support/harness.js';

describe('readWithin: the byte cap counted while a cursor is read', () => {
  let h: Harness;
  const doc = (i: number) => ({ i, text: 'x'.repeat(1000) });
  /** Stored size of one document as read back (with its `_id`); all ten are the same size. */
  let size = 0;
  before(async () => {
    h = await freshHarness();
    await h.db.collection('scratch').insertMany(Array.from({ length: 10 }, (_, i) => doc(i)));
    size = BSON.calculateObjectSize((await h.db.collection('scratch').findOne({})) ?? {});
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  /** Commands on the scratch collection: the app's own background work (scheduler, workers) shares the client. */
  async function commandsDuring(fn: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const listener = (e: CommandStartedEvent) => {
      const on = e.command[e.commandName] === 'scratch' || e.command.collection === 'scratch';
      if (on) seen.push(e.commandName);
    };
    h.client.on('commandStarted', listener);
    try {
      await fn();
    } finally {
      h.client.off('commandStarted', listener);
    }
    return seen;
  }

  it('stops at the document that crosses the cap and closes the cursor, fetching no later batch', async () => {
    let failure: unknown;
    const commands = await commandsDuring(async () => {
      const cursor = h.db
        .collection('scratch')
        .find({}, { sort: { i: 1 } })
        .batchSize(1);
      failure = await readWithin(cursor, new ByteBudget(size * 2.5)).catch((err: unknown) => err);
    });
    assert.ok(failure instanceof ResponseTooLargeError);
    // The third document crosses the cap: one find and two getMores fetched it, then the cursor is killed.
    assert.deepEqual(commands, ['find', 'getMore', 'getMore', 'killCursors']);
  });

  it('reads everything under the cap', async () => {
    const docs = await readWithin(h.db.collection('scratch').find({}), new ByteBudget(size * 10));
    assert.equal(docs.length, 10);
  });
});
