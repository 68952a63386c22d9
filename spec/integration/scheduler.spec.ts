import assert from 'node:assert/strict';
import { Scheduler } from '../../lib/scheduling/scheduler.js';
import { BucketSuite } from '../support/bucket-suite.js';

const HOUR = 3600_000;

describe('scheduled publishing', () => {
  const suite = new BucketSuite('sched', async () => {
    await suite.api.post('/object-types', { title: 'News' }).expect(200);
  });

  const later = (ms: number) => () => new Date(Date.now() + ms);
  const scheduled = async (title: string, publishAt: string | number) =>
    (await suite.api.post('/objects', { title, type: 'news', publish_at: publishAt }).expect(200)).body.object;
  const revisionsOf = async (id: string) =>
    (await suite.api.get(`/objects/${id}/revisions`).expect(200)).body.revisions as Array<{ reason: string }>;

  it('keeps a scheduled Object draft until its time, then publishes it once', async () => {
    const at = new Date(Date.now() + HOUR).toISOString();
    const o = await scheduled('Tomorrow', at);
    assert.equal(o.status, 'draft');
    assert.equal(o.publish_at, Date.parse(at), 'answered as UNIX milliseconds, as the legacy field is');
    await suite.api.get(`/objects/${o.id}`).expect(404);
    assert.equal(
      await new Scheduler(suite.harness.writes, { intervalMs: 0, now: later(HOUR / 2) }).tick(),
      0,
      'not due yet',
    );
    assert.equal(await new Scheduler(suite.harness.writes, { intervalMs: 0, now: later(2 * HOUR) }).tick(), 1);
    const live = await suite.api.get(`/objects/${o.id}`).expect(200);
    assert.equal(live.body.object.status, 'published');
    assert.equal(live.body.object.published_at, at);
    assert.equal(live.body.object.publish_at, undefined);
    assert.deepEqual(
      (await revisionsOf(o.id)).map((r) => r.reason),
      ['scheduled-publish', 'create'],
    );
  });

  it('accepts UNIX milliseconds like the legacy field and answers them on every read', async () => {
    const at = Date.now() + 100 * HOUR;
    const o = await scheduled('Legacy', at);
    assert.equal(o.publish_at, at);
    assert.equal((await suite.api.get(`/objects/${o.id}?status=any`).expect(200)).body.object.publish_at, at);
    const list = await suite.api.get(
      `/objects?status=any&props=id,publish_at&query=${encodeURIComponent('{"slug":"legacy"}')}`,
    );
    assert.deepEqual(list.body.objects, [{ id: o.id, publish_at: at }]);
  });

  it('refuses a time in the past, a malformed one, and status published with a schedule', async () => {
    const past = await suite.api
      .post('/objects', { title: 'P', type: 'news', publish_at: new Date(Date.now() - 1000).toISOString() })
      .expect(400);
    assert.match(past.body.message, /publish_at must be in the future/);
    await suite.api.post('/objects', { title: 'P', type: 'news', publish_at: 'soon' }).expect(400);
    const both = await suite.api
      .post('/objects', { title: 'P', type: 'news', status: 'published', publish_at: Date.now() + HOUR })
      .expect(400);
    assert.match(both.body.message, /publish_at schedules a later publish/);
  });

  it('does work that fell due while the service was stopped at start-up', async () => {
    const o = await scheduled('Missed', Date.now() + HOUR);
    // The service was down when this came due: the time is already past when a process starts.
    await suite.harness.db
      .collection('objects')
      .updateOne({ slug: 'missed' }, { $set: { publish_at: new Date(Date.now() - 60_000) } });
    const scheduler = new Scheduler(suite.harness.writes, { intervalMs: 60_000 });
    scheduler.start();
    await scheduler.stop();
    const live = await suite.api.get(`/objects/${o.id}`).expect(200);
    assert.equal(live.body.object.status, 'published');
  });

  it('two app instances on one database publish a due Object exactly once', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await scheduled(`Race ${i}`, Date.now() + HOUR)).id);
    const now = later(2 * HOUR);
    const a = new Scheduler(suite.harness.writes, { intervalMs: 0, now });
    const b = new Scheduler(suite.harness.writes, { intervalMs: 0, now });
    const [doneA, doneB] = await Promise.all([a.tick(), b.tick()]);
    assert.equal(doneA + doneB, 5);
    for (const id of ids) {
      const reasons = (await revisionsOf(id)).map((r) => r.reason);
      assert.deepEqual(reasons, ['scheduled-publish', 'create'], id);
    }
    assert.equal(await a.tick(), 0);
  });

  it('withdraws the live version at unpublish_at', async () => {
    const o = (
      await suite.api
        .post('/objects', { title: 'Temporary', type: 'news', unpublish_at: Date.now() + HOUR })
        .expect(200)
    ).body.object;
    assert.equal(typeof o.unpublish_at, 'number');
    assert.ok(o.unpublish_at > Date.now());
    await suite.api.get(`/objects/${o.id}`).expect(200);
    assert.equal(await new Scheduler(suite.harness.writes, { intervalMs: 0, now: later(2 * HOUR) }).tick(), 1);
    await suite.api.get(`/objects/${o.id}`).expect(404);
    const latest = await suite.api.get(`/objects/${o.id}?status=any`).expect(200);
    assert.equal(latest.body.object.status, 'draft');
  });
});
