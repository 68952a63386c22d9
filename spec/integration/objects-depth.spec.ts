import assert from 'node:assert/strict';
import type { CommandStartedEvent } from 'mongodb';
import { bucketClient } from '../support/client.js';
import { isGateCommand } from '../support/command-operators.js';
import { freshHarness, type Harness } from '../support/harness.js';

describe('depth: relationship expansion', () => {
  let h: Harness;
  let api: ReturnType<typeof bucketClient>;
  const id: Record<string, string> = {};
  before(async () => {
    h = await freshHarness();
    api = bucketClient(h.app, await h.bucket('depth'));
    await api
      .post('/object-types', {
        title: 'Nodes',
        metafields: [
          { type: 'object', title: 'Next', key: 'next', value: '', object_type: 'nodes' },
          { type: 'objects', title: 'Friends', key: 'friends', value: '', object_type: 'nodes' },
          {
            type: 'parent',
            title: 'Box',
            key: 'box',
            children: [{ type: 'object', title: 'Inner', key: 'inner', value: '', object_type: 'nodes' }],
          },
          {
            type: 'repeater',
            title: 'Links',
            key: 'links',
            repeater_fields: [{ type: 'object', title: 'Target', key: 'target', value: '', object_type: 'nodes' }],
          },
        ],
      })
      .expect(200);
    for (const name of ['a', 'b', 'c', 'd', 'hidden']) {
      id[name] = (
        await api
          .post('/objects', {
            title: name.toUpperCase(),
            type: 'nodes',
            status: name === 'hidden' ? 'draft' : 'published',
          })
          .expect(200)
      ).body.object.id;
    }
    await api
      .patch(`/objects/${id.a}`, {
        metadata: { next: id.b, friends: [id.c, id.hidden], box: { inner: id.c }, links: [{ target: id.d }] },
      })
      .expect(200);
    await api.patch(`/objects/${id.b}`, { metadata: { next: id.a, friends: [id.b] } }).expect(200);
    await api.patch(`/objects/${id.c}`, { metadata: { next: id.d } }).expect(200);
    await api.patch(`/objects/${id.d}`, { metadata: { next: id.c } }).expect(200);
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  const getA = async (depth: number) => (await api.get(`/objects/${id.a}?depth=${depth}`).expect(200)).body.object;

  it('depth 0 answers ids', async () => {
    const a = await getA(0);
    assert.equal(a.metadata.next, id.b);
    assert.deepEqual(a.metadata.friends, [id.c, id.hidden]);
    assert.equal(a.metadata.box.inner, id.c);
    assert.equal(a.metadata.links[0].target, id.d);
  });

  it('depth 1 answers related Objects everywhere: top level, parent children, repeater items', async () => {
    const a = await getA(1);
    assert.equal(a.metadata.next.title, 'B');
    assert.equal(a.metadata.next.metadata.next, id.a, 'next level stays ids');
    assert.equal(a.metadata.box.inner.title, 'C');
    assert.equal(a.metadata.links[0].target.title, 'D');
  });

  it('leaves out related Objects the status filter hides', async () => {
    const a = await getA(1);
    assert.deepEqual(
      a.metadata.friends.map((f: { title: string }) => f.title),
      ['C'],
    );
    const any = (await api.get(`/objects/${id.a}?depth=1&status=any`).expect(200)).body.object;
    assert.deepEqual(
      any.metadata.friends.map((f: { title: string }) => f.title),
      ['C', 'HIDDEN'],
    );
  });

  it('cuts a cycle A→B→A: the reference back stays an id', async () => {
    const a = await getA(3);
    assert.equal(a.metadata.next.title, 'B');
    assert.equal(a.metadata.next.metadata.next, id.a);
  });

  it('cuts a self reference: B lists itself as an id', async () => {
    const b = (await api.get(`/objects/${id.b}?depth=2`).expect(200)).body.object;
    assert.deepEqual(b.metadata.friends, [id.b]);
  });

  it('expands up to depth 3 and no further', async () => {
    const a = await getA(3);
    const c = a.metadata.box.inner;
    assert.equal(c.metadata.next.title, 'D', 'level 2');
    assert.equal(c.metadata.next.metadata.next, id.c, 'C is on the path: cut');
    const a2 = await getA(2);
    assert.equal(a2.metadata.box.inner.metadata.next.title, 'D');
    assert.equal(a2.metadata.box.inner.metadata.next.metadata.next, id.c);
  });

  it('lists with depth and props reaching into related Objects', async () => {
    const res = await api
      .get(`/objects?query=${encodeURIComponent(JSON.stringify({ id: id.a }))}&depth=1&props=title,metadata.next.title`)
      .expect(200);
    assert.deepEqual(res.body.objects, [{ title: 'A', metadata: { next: { title: 'B' } } }]);
  });

  it('resolves a depth=2 page in three round trips: Bucket, page with relations, count', async () => {
    const commands: string[] = [];
    const client = h.client;
    const listener = (e: CommandStartedEvent) => {
      if (!isGateCommand(e)) commands.push(e.commandName);
    };
    client.on('commandStarted', listener);
    try {
      await api.get(`/objects?query=${encodeURIComponent('{"type":"nodes"}')}&depth=2&useCache=false`).expect(200);
    } finally {
      client.off('commandStarted', listener);
    }
    // The Bucket lookup, then one aggregation for the page and both levels beside the count.
    assert.deepEqual(commands.sort(), ['aggregate', 'aggregate', 'find'], commands.join(','));
  });
});
