import assert from 'node:assert/strict';
import type { DomainEvent } from '../../lib/events/domain-events.js';
import { Scheduler } from '../../lib/scheduling/scheduler.js';
import { upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

const HOUR = 3600_000;

describe('domain events: every mutation emits exactly its events', () => {
  const suite = new BucketSuite('events', async () => {
    await suite.api.post('/object-types', { title: 'Posts' }).expect(200);
  });

  /** The events `action` emitted, as [type, subject id] pairs; each carries the Bucket's slug. */
  async function eventsOf(action: () => Promise<unknown>): Promise<DomainEvent[]> {
    // Earlier requests' put-off clears first: work an Object still carries is done again by the
    // next writer of the Object (the scheduler, say), which emits its event again (same id).
    await suite.harness.settled();
    const from = suite.harness.emitted.length;
    await action();
    const events = suite.harness.emitted.slice(from);
    for (const e of events) assert.equal(e.bucket, 'events');
    return events;
  }
  const kinds = (events: DomainEvent[]) => events.map((e) => [e.type, e.subjectId]);
  const createPost = async (title: string, extra: object = {}) =>
    String((await suite.api.post('/objects', { title, type: 'posts', ...extra }).expect(200)).body.object.id);

  it('Object create, edit, publish and draft save: one event each, with the object as the API answers it', async () => {
    let id = '';
    const created = await eventsOf(async () => {
      id = await createPost('One');
    });
    assert.deepEqual(kinds(created), [['object.created', id]]);
    const [event] = created;
    assert.equal(event?.objectType, 'posts');
    const answered = await suite.api.get(`/objects/${id}`).expect(200);
    assert.deepEqual(event.data, answered.body.object, 'data is the rendered resource');

    const edited = await eventsOf(() => suite.api.patch(`/objects/${id}`, { title: 'Two' }).expect(200));
    assert.deepEqual(kinds(edited), [['object.edited', id]]);
    assert.equal((edited[0]?.data as { title: string }).title, 'Two');
    const draft = await eventsOf(() =>
      suite.api.patch(`/objects/${id}`, { title: 'Three', status: 'draft' }).expect(200),
    );
    assert.deepEqual(kinds(draft), [['object.edited', id]]);
    const revision = await eventsOf(() => suite.api.post(`/objects/${id}/revisions`, { title: 'Four' }).expect(200));
    assert.deepEqual(kinds(revision), [['object.edited', id]]);
    const published = await eventsOf(() => suite.api.patch(`/objects/${id}`, { status: 'published' }).expect(200));
    assert.deepEqual(kinds(published), [['object.published', id]]);
    const ids = [...created, ...edited, ...draft, ...revision, ...published].map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'each write has its own event id');
  });

  it('Object DELETE emits object.deleted only with trigger_webhook=true', async () => {
    const quiet = await createPost('Quiet');
    assert.deepEqual(await eventsOf(() => suite.api.delete(`/objects/${quiet}`).expect(200)), []);
    const loud = await createPost('Loud');
    const deleted = await eventsOf(() => suite.api.delete(`/objects/${loud}?trigger_webhook=true`).expect(200));
    assert.deepEqual(kinds(deleted), [['object.deleted', loud]]);
    assert.equal((deleted[0]?.data as { title: string }).title, 'Loud', 'the Object as it was');
    assert.deepEqual(await eventsOf(() => suite.api.delete(`/objects/${loud}?trigger_webhook=true`).expect(404)), []);
  });

  it('a batch emits per operation; a delete follows its own trigger_webhook', async () => {
    const a = await createPost('A');
    const b = await createPost('B');
    const c = await createPost('C');
    let added = '';
    const events = await eventsOf(async () => {
      const res = await suite.api
        .post('/objects/batch', {
          operations: [
            { method: 'add', object: { title: 'D', type: 'posts' } },
            { method: 'edit', object_id: a, object: { title: 'A2' } },
            { method: 'delete', object_id: b },
            { method: 'delete', object_id: c, trigger_webhook: true },
            { method: 'edit', object_id: a, object: { title: '' } },
          ],
        })
        .expect(200);
      added = String(res.body.operations[0].object.id);
      assert.equal(res.body.operations[4].status, 400, 'a failed operation emits nothing');
    });
    assert.deepEqual(kinds(events), [
      ['object.created', added],
      ['object.edited', a],
      ['object.deleted', c],
    ]);
  });

  it('the scheduler emits object.published and object.unpublished', async () => {
    const at = new Date(Date.now() + HOUR).toISOString();
    const id = await createPost('Later', { publish_at: at, unpublish_at: Date.now() + 2 * HOUR });
    const tick = (ms: number) =>
      new Scheduler(suite.harness.writes, { intervalMs: 0, now: () => new Date(Date.now() + ms) }).tick();
    assert.deepEqual(kinds(await eventsOf(() => tick(HOUR + 1000))), [['object.published', id]]);
    assert.deepEqual(kinds(await eventsOf(() => tick(2 * HOUR + 1000))), [['object.unpublished', id]]);
  });

  it('Object types: create and edit emit; delete (and its cascade) only with trigger_webhook=true', async () => {
    const created = await eventsOf(() => suite.api.post('/object-types', { title: 'Pages' }).expect(200));
    assert.deepEqual(
      created.map((e) => [e.type, e.objectType]),
      [['object_type.created', 'pages']],
    );
    const edited = await eventsOf(() => suite.api.patch('/object-types/pages', { title: 'Web pages' }).expect(200));
    assert.deepEqual(
      edited.map((e) => [e.type, (e.data as { title: string }).title]),
      [['object_type.edited', 'Web pages']],
    );
    await suite.api.post('/objects', { title: 'P1', type: 'pages' }).expect(200);
    assert.deepEqual(await eventsOf(() => suite.api.delete('/object-types/pages').expect(200)), []);

    await suite.api.post('/object-types', { title: 'Notes' }).expect(200);
    const notes = [
      String((await suite.api.post('/objects', { title: 'N1', type: 'notes' }).expect(200)).body.object.id),
      String(
        (await suite.api.post('/objects', { title: 'N2', type: 'notes', status: 'draft' }).expect(200)).body.object.id,
      ),
    ];
    const deleted = await eventsOf(() => suite.api.delete('/object-types/notes?trigger_webhook=true').expect(200));
    assert.deepEqual(
      deleted.map((e) => e.type),
      ['object.deleted', 'object.deleted', 'object_type.deleted'],
    );
    assert.deepEqual(
      deleted
        .slice(0, 2)
        .map((e) => e.subjectId)
        .sort(),
      [...notes].sort(),
    );
    assert.ok(deleted.every((e) => e.objectType === 'notes'));
  });

  it('media: upload and PATCH emit; DELETE only with trigger_webhook=true', async () => {
    const uploadOne = async () =>
      String((await upload(suite.harness.app, suite.keys, Buffer.from('hello')).expect(200)).body.media.id);
    let id = '';
    const created = await eventsOf(async () => {
      id = await uploadOne();
    });
    assert.deepEqual(kinds(created), [['media.created', id]]);
    assert.equal(created[0]?.objectType, undefined);
    const edited = await eventsOf(() => suite.api.patch(`/media/${id}`, { alt_text: 'hi' }).expect(200));
    assert.deepEqual(kinds(edited), [['media.edited', id]]);
    assert.equal((edited[0]?.data as { alt_text: string }).alt_text, 'hi');
    assert.deepEqual(await eventsOf(() => suite.api.delete(`/media/${id}`).expect(200)), []);
    const loud = await uploadOne();
    const deleted = await eventsOf(() => suite.api.delete(`/media/${loud}?trigger_webhook=true`).expect(200));
    assert.deepEqual(kinds(deleted), [['media.deleted', loud]]);
  });
});
