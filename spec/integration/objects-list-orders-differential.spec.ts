import assert from 'node:assert/strict';
import type { CommandStartedEvent } from 'mongodb';
import { createApp } from '../../lib/app.js';
import { bucketClient } from '../support/client.js';
import { BucketSuite } from '../support/bucket-suite.js';
import { byIdsAlone, filterFields } from '../support/command-operators.js';

/**
 * Kept list orders against none, on one database: a second app over the same data keeps no
 * order (LIST_ORDER_MAX_IDS=0), so every read of it matches and sorts. Between random writes
 * (creates, edits that move an Object in the sort, publishes, unpublishes, deletes), both apps
 * answer the same random reads, each read twice so the first app answers through a kept order.
 * Half the writes go through a third app, as another process would write: the first app's kept
 * orders follow the writes the Bucket notes (lib/objects/list/object-list-order.ts), whoever made them.
 */
describe('GET /objects: kept orders answer what matching again answers, between random writes', () => {
  let plain: ReturnType<typeof bucketClient>;
  let otherProcess: ReturnType<typeof bucketClient>;
  const live: string[] = [];
  // A fixed-seed generator (mulberry32): the same run every time, so a failure can be replayed.
  let seed = 0x5eed;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

  const suite = new BucketSuite('differential', async () => {
    const unkept = createApp({
      config: { ...suite.harness.config, listOrderMaxIds: 0 },
      db: suite.harness.db,
      log: (m) => suite.harness.errors.push(m),
    });
    plain = bucketClient(unkept, suite.keys);
    otherProcess = bucketClient(
      createApp({ config: suite.harness.config, db: suite.harness.db, log: (m) => suite.harness.errors.push(m) }),
      suite.keys,
    );
    await suite.api
      .post('/object-types', {
        title: 'Posts',
        metafields: [{ type: 'number', title: 'Score', key: 'score', value: '', sortable: true }],
      })
      .expect(200);
  });

  async function write(): Promise<void> {
    const api = pick([suite.api, otherProcess]);
    const score = Math.floor(random() * 6);
    const action = live.length < 4 ? 'create' : pick(['create', 'edit', 'edit', 'draft', 'publish', 'delete']);
    if (action === 'create') {
      const status = pick(['published', 'published', 'draft']);
      const body = { title: `P${live.length}`, type: 'posts', status, metadata: { score } };
      live.push((await api.post('/objects', body).expect(200)).body.object.id as string);
      return;
    }
    const id = pick(live);
    if (action === 'delete') {
      await api.delete(`/objects/${id}`).expect(200);
      live.splice(live.indexOf(id), 1);
    } else if (action === 'edit') await api.patch(`/objects/${id}`, { metadata: { score } }).expect(200);
    else await api.patch(`/objects/${id}`, { status: action === 'draft' ? 'draft' : 'published' }).expect(200);
  }

  function randomRead(): string {
    const query = encodeURIComponent(
      JSON.stringify(pick([{ type: 'posts' }, { type: 'posts', 'metadata.score': { $gte: 2 } }])),
    );
    const sort = pick(['-metadata.score', 'metadata.score', 'created_at', '-order', '-modified_at']);
    const status = pick(['published', 'any']);
    const limit = 1 + Math.floor(random() * 4);
    const skip = pick([0, 0, 1, 3]);
    return `/objects?query=${query}&sort=${sort}&status=${status}&limit=${limit}&skip=${skip}&props=id,title,status&useCache=false`;
  }

  it('answers 40 rounds of writes and reads alike, cursors included', async function () {
    // Sized for the work on a busy 2-core machine (many requests or child processes), not for speed.
    this.timeout(180_000);
    let compared = 0;
    // Page reads by ids and Bucket alone come from kept orders only (nothing here expands
    // relationships); reads by ids, Bucket and the list's filter re-read written Objects to follow.
    let byId = 0;
    let followed = 0;
    const listener = (e: CommandStartedEvent) => {
      const filter = e.command.filter as Record<string, unknown> | undefined;
      if (e.command.find === 'published_objects' || e.command.find === 'objects') {
        if (byIdsAlone(filterFields(filter))) byId++;
        if (filterFields(filter).join() === '_id $in,bucket_id,$and') followed++;
      }
    };
    suite.harness.client.on('commandStarted', listener);
    for (let round = 0; round < 40; round++) {
      await write();
      for (let r = 0; r < 3; r++) {
        const path = randomRead();
        for (let twice = 0; twice < 2; twice++) {
          const ours = await suite.api.get(path);
          const theirs = await plain.get(path);
          assert.equal(ours.status, theirs.status, path);
          assert.deepEqual(ours.body, theirs.body, path);
          compared++;
          // Continue after the page's last item, as a client paging with `after` would.
          const last = (ours.body as { objects?: Array<{ id: string }> }).objects?.at(-1)?.id;
          if (last === undefined || !path.includes('skip=0')) continue;
          const next = `${path.replace(/&skip=\d+/, '')}&after=${last}`;
          const [a, b] = [await suite.api.get(next), await plain.get(next)];
          assert.deepEqual([a.status, a.body], [b.status, b.body], next);
          compared++;
        }
      }
    }
    suite.harness.client.off('commandStarted', listener);
    assert.ok(compared >= 240, `compared ${compared} answers`);
    assert.ok(byId > 40, `${byId} pages were read through kept orders`);
    assert.ok(followed > 20, `${followed} kept orders followed writes`);
  });
});
