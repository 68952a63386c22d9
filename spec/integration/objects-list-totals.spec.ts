import assert from 'node:assert/strict';
import { BucketSuite } from '../support/bucket-suite.js';

/**
 * `total` of Object lists: counted once per Bucket generation and filter, proved by a short page
 * without counting, and never stale, as every write bumps the generation.
 */
describe('GET /objects: totals kept per Bucket generation', () => {
  const q = (query: object) => encodeURIComponent(JSON.stringify(query));

  const suite = new BucketSuite('totals', async () => {
    await suite.api.post('/object-types', { title: 'Notes', metafields: [] }).expect(200);
    for (let i = 0; i < 5; i++) {
      await suite.api
        .post('/objects', { title: `Note ${i}`, type: 'notes', status: i < 4 ? 'published' : 'draft' })
        .expect(200);
    }
  });

  /** The answer to `path` and the names of the aggregations (counts) it sent. */
  async function read(path: string): Promise<{ body: { total: number; objects: unknown[] }; counts: number }> {
    let counts = 0;
    const listener = (e: { commandName: string }) => {
      if (e.commandName === 'aggregate') counts++;
    };
    suite.harness.client.on('commandStarted', listener);
    try {
      const res = await suite.api.get(path).expect(200);
      return { body: res.body, counts };
    } finally {
      suite.harness.client.off('commandStarted', listener);
    }
  }

  it('counts a full page once, then answers the same total without counting', async () => {
    const path = `/objects?query=${q({ type: 'notes' })}&limit=2&useCache=false`;
    const first = await read(path);
    assert.equal(first.body.total, 4);
    assert.equal(first.counts, 1);
    const again = await read(path);
    assert.equal(again.body.total, 4);
    assert.equal(again.counts, 0, 'the second read reuses the total');
  });

  it('keeps totals apart per filter and per status', async () => {
    const published = await read(`/objects?query=${q({ type: 'notes' })}&limit=1&useCache=false`);
    const any = await read(`/objects?query=${q({ type: 'notes' })}&limit=1&status=any&useCache=false`);
    const one = await read(`/objects?query=${q({ type: 'notes', title: 'Note 1' })}&limit=1&useCache=false`);
    assert.deepEqual([published.body.total, any.body.total, one.body.total], [4, 5, 1]);
  });

  it('answers a short first page without counting: its length is the total', async () => {
    const res = await read(`/objects?query=${q({ type: 'notes', title: { $regex: '^Note [0-2]$' } })}&useCache=false`);
    assert.equal(res.body.total, 3);
    assert.equal(res.counts, 0);
  });

  it('proves the total from a short page after skip, but counts for a short page after a cursor', async () => {
    const path = (query: object, extra: string) =>
      `/objects?query=${q(query)}&status=any&limit=3&sort=created_at&useCache=false${extra}`;
    const skipped = await read(path({ type: 'notes' }, '&skip=3'));
    assert.deepEqual([skipped.body.objects.length, skipped.body.total, skipped.counts], [2, 5, 0]);
    const first = (await read(path({ type: 'notes' }, ''))).body.objects as Array<{ id: string }>;
    // A filter not counted yet: the two Objects after the cursor say nothing of the three before.
    const afterCursor = await read(path({ type: 'notes', title: { $regex: '^Note' } }, `&after=${first[2]!.id}`));
    assert.deepEqual([afterCursor.body.objects.length, afterCursor.body.total, afterCursor.counts], [2, 5, 1]);
  });

  it('never answers a stale total after a write: a kept order follows a create, a delete counts again', async () => {
    const path = `/objects?query=${q({ type: 'notes' })}&limit=2&useCache=false`;
    assert.equal((await read(path)).body.total, 4);
    const made = (await suite.api.post('/objects', { title: 'Note 5', type: 'notes' }).expect(200)).body.object.id;
    const afterCreate = await read(path);
    // The list's kept order (read on its second read, above) took the new Note in: its length is the total.
    assert.deepEqual([afterCreate.body.total, afterCreate.counts], [5, 0]);
    const unkept = `/objects?query=${q({ type: 'notes', title: { $ne: 'x' } })}&limit=2&useCache=false`;
    assert.deepEqual([(await read(unkept)).body.total, (await read(unkept)).counts], [5, 0], 'counted once');
    await suite.api.post('/objects', { title: 'Note 6', type: 'notes', status: 'draft' }).expect(200);
    assert.equal((await read(unkept)).body.total, 5, 'a draft is not in the published list');
    await suite.api.delete(`/objects/${made}`).expect(200);
    assert.equal((await read(path)).body.total, 4);
  });
});
