import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { imageBytes, upload } from '../support/media.js';
import { webhookFixture } from '../support/webhook-fixture.js';
import { drainUntil } from '../support/webhook-helpers.js';

type Payload = { id: string; type: string; data: Record<string, unknown> };

/** Writes through the v3 routes reach a subscribed receiver as signed deliveries. */
describe('webhooks fired by writes', () => {
  const f = webhookFixture('fired');
  const ALL = [
    'object.created',
    'object.edited',
    'object.published',
    'object.deleted',
    'object_type.created',
    'object_type.deleted',
    'media.created',
    'media.deleted',
  ];

  /** Every payload the receiver got, verified with the webhook's secret, in arrival order. */
  async function payloads(secret: string, count: number): Promise<Payload[]> {
    await drainUntil(f.worker, () => f.receiver.received.length >= count);
    const verifier = new Webhook(secret);
    return f.receiver.received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as Payload);
  }

  it('delivers each write once; deletes only with trigger_webhook=true', async () => {
    const { secret } = await f.hook({ events: ALL });
    const made = (await f.api.post('/objects', { title: 'A', type: 'posts', status: 'draft' }).expect(200)).body.object;
    const id = String(made.id);
    await f.api.patch(`/objects/${id}`, { title: 'B' }).expect(200);
    await f.api.patch(`/objects/${id}`, { status: 'published' }).expect(200);
    await f.api.delete(`/objects/${id}`).expect(200);
    const other = (await f.api.post('/objects', { title: 'C', type: 'posts' }).expect(200)).body.object;
    await f.api.delete(`/objects/${String(other.id)}?trigger_webhook=true`).expect(200);
    await f.api.post('/object-types', { title: 'Notes' }).expect(200);
    await f.api.delete('/object-types/notes?trigger_webhook=true').expect(200);
    const media = (await upload(f.h.app, f.keys, await imageBytes(8, 8), { filename: 'a.png' }).expect(200)).body.media;
    await f.api.delete(`/media/${String(media.id)}`).expect(200);
    const got = await payloads(secret, 8);
    await f.worker.drain();
    assert.equal(f.receiver.received.length, 8, 'nothing more: the deletes without trigger_webhook fired nothing');
    assert.deepEqual(
      got.map((p) => `${p.type} ${String(p.data.title ?? p.data.original_name)}`).sort(),
      [
        'media.created a.png',
        'object.created A',
        'object.created C',
        'object.deleted C',
        'object.edited B',
        'object.published B',
        'object_type.created Notes',
        'object_type.deleted Notes',
      ].sort(),
    );
    assert.equal(new Set(f.receiver.ids()).size, f.receiver.received.length, 'each delivery id arrives once');
  });

  it('follows every webhook change although writes keep the Bucket’s webhook list: create, edit, delete', async () => {
    /** The titles of the Objects the receiver was sent, after a write of each title in `titles`. */
    const deliveredAfter = async (...titles: string[]) => {
      f.receiver.received.length = 0;
      for (const title of titles) await f.api.post('/objects', { title, type: 'posts' }).expect(200);
      await f.worker.drain();
      return f.receiver.received.map((r) => String((JSON.parse(r.body) as Payload).data.title)).sort();
    };
    assert.deepEqual(await deliveredAfter('none yet', 'still none'), []);
    const hook = await f.hook({ events: ['object.created'] });
    assert.deepEqual(await deliveredAfter('E1', 'E2'), ['E1', 'E2']);
    await f.api.patch(`/webhooks/${hook.id}`, { events: ['object.edited'] }).expect(200);
    assert.deepEqual(await deliveredAfter('E3'), [], 'no longer subscribed to object.created');
    await f.api.patch(`/webhooks/${hook.id}`, { events: ['object.created'], enabled: false }).expect(200);
    assert.deepEqual(await deliveredAfter('E4'), [], 'disabled');
    await f.api.patch(`/webhooks/${hook.id}`, { enabled: true }).expect(200);
    assert.deepEqual(await deliveredAfter('E5'), ['E5']);
    await f.api.delete(`/webhooks/${hook.id}`).expect(200);
    assert.deepEqual(await deliveredAfter('E6'), [], 'deleted');
  });

  it('sends only the props a webhook asks for, and only ids with payload: false', async () => {
    await f.hook({ events: ['object.created'], props: 'id,title' });
    await f.hook({ events: ['object.created'], payload: false });
    await f.api.post('/objects', { title: 'D', type: 'posts', metadata: { price: 4 } }).expect(200);
    await drainUntil(f.worker, () => f.receiver.received.length >= 2);
    const fields = f.receiver.received.map((r) =>
      Object.keys((JSON.parse(r.body) as Payload).data)
        .sort()
        .join(','),
    );
    assert.deepEqual(fields.sort(), ['id,slug,type', 'id,title']);
  });
});
