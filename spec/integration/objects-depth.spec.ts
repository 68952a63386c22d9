import assert from 'node:assert/strict';
import { ObjectId, type CommandStartedEvent } from 'mongodb';
import { bucketClient } from '../support/client.js';
import { isGateCommand } from '../support/command-operators.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('depth: relationship expansion', () => {
  const id: Record<string, string> = {};
  const suite = new BucketSuite('depth', async () => {
    await suite.api
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
        await suite.api
          .post('/objects', {
            title: name.toUpperCase(),
            type: 'nodes',
            status: name === 'hidden' ? 'draft' : 'published',
          })
          .expect(200)
      ).body.object.id;
    }
    await suite.api
      .patch(`/objects/${id.a}`, {
        metadata: { next: id.b, friends: [id.c, id.hidden], box: { inner: id.c }, links: [{ target: id.d }] },
      })
      .expect(200);
    await suite.api.patch(`/objects/${id.b}`, { metadata: { next: id.a, friends: [id.b] } }).expect(200);
    await suite.api.patch(`/objects/${id.c}`, { metadata: { next: id.d } }).expect(200);
    await suite.api.patch(`/objects/${id.d}`, { metadata: { next: id.c } }).expect(200);
  });

  const getA = async (depth: number) =>
    (await suite.api.get(`/objects/${id.a}?depth=${depth}`).expect(200)).body.object;

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
    const any = (await suite.api.get(`/objects/${id.a}?depth=1&status=any`).expect(200)).body.object;
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
    const b = (await suite.api.get(`/objects/${id.b}?depth=2`).expect(200)).body.object;
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
    const res = await suite.api
      .get(`/objects?query=${encodeURIComponent(JSON.stringify({ id: id.a }))}&depth=1&props=title,metadata.next.title`)
      .expect(200);
    assert.deepEqual(res.body.objects, [{ title: 'A', metadata: { next: { title: 'B' } } }]);
  });

  /** The commands one request sends, by name and collection. */
  async function commandsOf(path: string): Promise<string[]> {
    const commands: string[] = [];
    const listener = (e: CommandStartedEvent) => {
      if (!isGateCommand(e)) commands.push(`${e.commandName} ${String(e.command[e.commandName])}`);
    };
    suite.harness.client.on('commandStarted', listener);
    try {
      await suite.api.get(path).expect(200);
    } finally {
      suite.harness.client.off('commandStarted', listener);
    }
    return commands;
  }

  it('resolves a depth=3 page with one read by _id per level that finds new ids, and counts a short page not at all', async () => {
    const commands = await commandsOf(
      `/objects?query=${encodeURIComponent('{"type":"nodes"}')}&depth=3&useCache=false`,
    );
    // The page (A to D) references A to D and the hidden draft: level 1 looks them all up, and
    // level 2 has no id left that was not looked up, so it reads nothing.
    assert.deepEqual(
      commands,
      ['find buckets', 'find published_objects', 'find published_objects'],
      commands.join(','),
    );
  });

  it('reads related Objects by _id alone and keeps only those of the Bucket and view', async () => {
    const other = bucketClient(suite.harness.app, await suite.harness.bucket('depth-other'));
    await other.post('/object-types', { title: 'Nodes', metafields: [] }).expect(200);
    const foreign = (await other.post('/objects', { title: 'Foreign', type: 'nodes' }).expect(200)).body.object.id;
    // Only a write that bypasses validation can plant another Bucket's id in refs.
    const planted = new ObjectId(foreign);
    for (const coll of ['objects', 'published_objects']) {
      await suite.harness.db
        .collection<{ _id: ObjectId; refs: ObjectId[] }>(coll)
        .updateOne({ _id: new ObjectId(id.d) }, { $set: { 'metadata.next': planted }, $push: { refs: planted } });
    }
    const d = (await suite.api.get(`/objects/${id.d}?depth=1&useCache=false`).expect(200)).body.object;
    assert.equal(d.metadata.next, null, 'another Bucket’s Object is not shown');
  });
});
