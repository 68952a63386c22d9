import assert from 'node:assert/strict';
import type { Express } from 'express';
import type { CommandStartedEvent, Db } from 'mongodb';
import { createApp } from '../../lib/app.js';
import { assumeBulkWrite } from '../../lib/db/service-db.js';
import { serviceDb } from '../../lib/db/service-db.js';
import { BucketSuite } from '../support/bucket-suite.js';
import { bucketClient } from '../support/client.js';

/**
 * Whether the servers have bulkWrite is kept in each app's database handle (lib/db/service-db.ts),
 * not per client: two apps on one client, told different things, each write as they were told.
 */
describe('what an app learns of bulkWrite stays in its own database handle', () => {
  const suite = new BucketSuite('apps', async (api) => {
    await api.post('/object-types', { title: 'Posts', metafields: [] }).expect(200);
  });
  /** A second app on the same client and database, with a handle of its own. */
  let other: Express;
  let otherDb: Db;
  let id = '';

  before(async () => {
    const h = suite.harness;
    otherDb = serviceDb(h.client.db(h.db.databaseName), { queryTimeoutMs: h.config.queryTimeoutMs });
    other = createApp({ config: h.config, db: otherDb, log: (m) => h.errors.push(m) });
    id = String((await suite.api.post('/objects', { title: 'Shared', type: 'posts' }).expect(200)).body.object.id);
  });
  after(() => {
    assumeBulkWrite(suite.harness.db, undefined);
  });

  /** The names of the commands an edit through `app` sent, its put-off work included. */
  async function editSends(app: Express, title: string): Promise<string[]> {
    const seen: string[] = [];
    const started = (e: CommandStartedEvent) => seen.push(e.commandName);
    const { client } = suite.harness;
    client.on('commandStarted', started);
    try {
      await bucketClient(app, suite.keys).patch(`/objects/${id}`, { title }).expect(200);
      await suite.harness.settled();
    } finally {
      client.off('commandStarted', started);
    }
    return seen;
  }

  for (const suiteHas of [true, false]) {
    it(`writes as each app was told: the suite's app ${suiteHas ? 'with' : 'without'} bulkWrite, the other one ${suiteHas ? 'without' : 'with'}`, async () => {
      assumeBulkWrite(suite.harness.db, suiteHas);
      assumeBulkWrite(otherDb, !suiteHas);
      for (const round of [1, 2]) {
        const mine = await editSends(suite.harness.app, `Mine ${round}`);
        const theirs = await editSends(other, `Theirs ${round}`);
        const [withIt, withoutIt] = suiteHas ? [mine, theirs] : [theirs, mine];
        assert.ok(withIt.includes('bulkWrite'), `one command for the app told it has bulkWrite: ${withIt.join(', ')}`);
        assert.ok(
          !withoutIt.includes('bulkWrite') && withoutIt.includes('update'),
          `commands of their own for the app told it has not: ${withoutIt.join(', ')}`,
        );
      }
      assert.equal((await suite.api.get(`/objects/${id}`).expect(200)).body.object.title, 'Theirs 2');
    });
  }
});
