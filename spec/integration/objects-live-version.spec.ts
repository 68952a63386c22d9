import assert from 'node:assert/strict';
import { Scheduler } from '../../lib/scheduling/scheduler.js';
import { BucketSuite } from '../support/bucket-suite.js';

const HOUR = 3600_000;

interface Answered {
  id: string;
  status: string;
  modified_at: string;
  published_modified_at?: string | null;
}

/** published_modified_at: which live version an Object read as its latest has (or none). */
describe('objects: the live version beside the latest', () => {
  const suite = new BucketSuite('live-version', async () => {
    await suite.api.post('/object-types', { title: 'Notes' }).expect(200);
  });

  const create = async (title: string, body: Record<string, unknown>) =>
    (await suite.api.post('/objects', { title, type: 'notes', ...body }).expect(200)).body.object as Answered;
  const one = async (id: string, query: string) =>
    (await suite.api.get(`/objects/${id}?${query}`).expect(200)).body.object as Answered;
  const listed = async (query: string) => {
    const filter = encodeURIComponent(JSON.stringify({ type: 'notes' }));
    const res = await suite.api.get(`/objects?query=${filter}&${query}`).expect(200);
    return new Map((res.body.objects as Answered[]).map((o) => [o.id, o]));
  };

  it('is null for an Object never published, on single and list reads', async () => {
    const o = await create('Never', { status: 'draft' });
    assert.equal((await one(o.id, 'status=any')).published_modified_at, null);
    assert.equal((await one(o.id, 'status=draft')).published_modified_at, null);
    assert.equal((await listed('status=any&useCache=false')).get(o.id)?.published_modified_at, null);
  });

  it('is the live modified_at: equal to modified_at when published, older under a newer draft', async () => {
    const o = await create('Live', { status: 'published' });
    const read = await one(o.id, 'status=any');
    assert.equal(read.status, 'published');
    assert.equal(read.published_modified_at, read.modified_at);

    await suite.api.patch(`/objects/${o.id}`, { title: 'Live, edited', status: 'draft' }).expect(200);
    const latest = await one(o.id, 'status=any&useCache=false');
    assert.equal(latest.status, 'draft');
    assert.equal(latest.published_modified_at, read.modified_at, 'the live version is still the first one');
    assert.notEqual(latest.modified_at, read.modified_at);
    // The list, read before through the cache, must show the new state too (the write moved its generation).
    assert.equal((await listed('status=draft')).get(o.id)?.published_modified_at, read.modified_at);
    assert.equal((await listed('status=any')).get(o.id)?.published_modified_at, read.modified_at);
  });

  it('is never on a status published read, the public one', async () => {
    const o = await create('Public', { status: 'published' });
    assert.equal('published_modified_at' in (await one(o.id, 'status=published')), false);
    assert.equal('published_modified_at' in (await one(o.id, '')), false);
    assert.equal('published_modified_at' in ((await listed('status=published')).get(o.id) ?? {}), false);
  });

  it('follows props: answered when asked for, left out when other props are', async () => {
    const o = await create('Props', { status: 'published' });
    const asked = await one(o.id, 'status=any&props=id,published_modified_at');
    assert.deepEqual(Object.keys(asked).sort(), ['id', 'published_modified_at']);
    assert.equal(typeof asked.published_modified_at, 'string');
    const other = (await listed('status=any&props=id,title')).get(o.id);
    assert.deepEqual(Object.keys(other ?? {}).sort(), ['id', 'title']);
  });

  it('turns null when the live version is withdrawn, also for a read cached before', async () => {
    const o = await create('Withdrawn', { status: 'published', unpublish_at: Date.now() + HOUR });
    assert.equal(typeof (await one(o.id, 'status=any')).published_modified_at, 'string');
    assert.equal(typeof (await listed('status=any')).get(o.id)?.published_modified_at, 'string');
    const later = () => new Date(Date.now() + 2 * HOUR);
    assert.equal(await new Scheduler(suite.harness.writes, { intervalMs: 0, now: later }).tick(), 1);
    assert.equal((await one(o.id, 'status=any')).published_modified_at, null);
    assert.equal((await listed('status=any')).get(o.id)?.published_modified_at, null);
  });
});
