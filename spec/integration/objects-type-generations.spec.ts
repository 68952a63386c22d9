import assert from 'node:assert/strict';
import type { CommandStartedEvent } from 'mongodb';
import { createApp } from '../../lib/app.js';
import type { BucketApi } from '../support/bucket-suite.js';
import { bucketClient } from '../support/client.js';
import { isGateCommand } from '../support/command-operators.js';
import { BucketSuite } from '../support/bucket-suite.js';

/**
 * A write drops only the cached reads it can change: lists of its own type, and depth reads of
 * types whose relationships reach it (lib/cache/bucket-generation.ts). Counted in commands.
 */
describe('cached reads by Object type generation', () => {
  /** The same Bucket through a second app on the same database: another process. */
  let other: BucketApi;
  const id: Record<string, string> = {};
  const list = (type: string, extra = '') =>
    `/objects?query=${encodeURIComponent(JSON.stringify({ type }))}&props=title,metadata${extra}`;

  const suite = new BucketSuite('typegen', async () => {
    other = bucketClient(
      createApp({ config: suite.harness.config, db: suite.harness.db, log: (m) => suite.harness.errors.push(m) }),
      suite.keys,
    );
    await suite.api.post('/object-types', { title: 'Authors' }).expect(200);
    await suite.api.post('/object-types', { title: 'Notes' }).expect(200);
    await suite.api
      .post('/object-types', {
        title: 'Posts',
        metafields: [{ type: 'object', title: 'Author', key: 'author', value: '', object_type: 'authors' }],
      })
      .expect(200);
    id.author = (await suite.api.post('/objects', { title: 'Ann', type: 'authors' }).expect(200)).body.object.id;
    id.note = (await suite.api.post('/objects', { title: 'N1', type: 'notes' }).expect(200)).body.object.id;
    id.post = (
      await suite.api.post('/objects', { title: 'P1', type: 'posts', metadata: { author: id.author } }).expect(200)
    ).body.object.id;
  });

  interface ListBody {
    objects: { title: string; metadata: { author?: { title: string } } }[];
  }

  /** The answer to GET `path` and the commands it sent. */
  async function read(path: string): Promise<{ cache: string | undefined; body: ListBody; commands: string[] }> {
    const commands: string[] = [];
    const listener = (e: CommandStartedEvent) => {
      if (!isGateCommand(e)) commands.push(`${e.commandName} ${String(e.command[e.commandName])}`);
    };
    suite.harness.client.on('commandStarted', listener);
    try {
      const res = await suite.api.get(path).expect(200);
      return { cache: res.headers['x-cache'], body: res.body as ListBody, commands };
    } finally {
      suite.harness.client.off('commandStarted', listener);
    }
  }

  it('keeps a list of one type cached while another type is written, in any process', async () => {
    assert.equal((await read(list('notes'))).cache, 'MISS');
    await suite.api.patch(`/objects/${id.author}`, { title: 'Ann B' }).expect(200);
    await other.patch(`/objects/${id.post}`, { title: 'P2' }).expect(200);
    const again = await read(list('notes'));
    assert.equal(again.cache, 'HIT');
    assert.deepEqual(again.commands, ['find buckets'], 'only the Bucket is read');
  });

  it('refreshes a list of the written type, also when another process wrote it', async () => {
    assert.equal((await read(list('notes'))).cache, 'HIT');
    await other.patch(`/objects/${id.note}`, { title: 'N2' }).expect(200);
    const again = await read(list('notes'));
    assert.equal(again.cache, 'MISS');
    assert.deepEqual(
      again.body.objects.map((o) => o.title),
      ['N2'],
    );
  });

  it('refreshes a depth read of a type relating to the written one, and keeps its depth=0 list', async () => {
    await read(list('posts'));
    const deep = list('posts', '&depth=1');
    assert.equal((await read(deep)).body.objects[0]?.metadata.author?.title, 'Ann B');
    assert.equal((await read(deep)).cache, 'HIT');
    await other.patch(`/objects/${id.author}`, { title: 'Ann C' }).expect(200);
    const after = await read(deep);
    assert.equal(after.cache, 'MISS');
    assert.equal(after.body.objects[0]?.metadata.author?.title, 'Ann C');
    assert.equal((await read(list('posts'))).cache, 'HIT', 'the posts themselves did not change');
  });

  it('keeps a list total counted for one type while another type is written', async () => {
    const uncached = list('notes', '&useCache=false&limit=1');
    await read(uncached);
    const before = (await read(uncached)).commands;
    await suite.api.patch(`/objects/${id.author}`, { title: 'Ann D' }).expect(200);
    assert.deepEqual((await read(uncached)).commands, before, 'no count after a write to another type');
  });
});
