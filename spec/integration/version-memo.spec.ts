import assert from 'node:assert/strict';
import type { CommandStartedEvent } from 'mongodb';
import type { RequestListener } from 'node:http';
import { createApp } from '../../lib/app.js';
import { objectsCollection, revisionsCollection, type ObjectDoc } from '../../lib/db/collections.js';
import { objectIdFromHex } from '../../lib/util/values.js';
import { bucketClient } from '../support/client.js';
import { BucketSuite, COUNTING_COMMANDS } from '../support/bucket-suite.js';

/**
 * An edit of an Object this app wrote last merges into the version it wrote, without reading it
 * (lib/objects/write/version-memo.ts). These tests change the Object behind the app's back, the
 * ways other writers do, and check that nothing they wrote is lost or undone by such an edit.
 */
describe('edits from the version the app wrote last', () => {
  const suite = new BucketSuite(
    'memo',
    async () => {
      await suite.api
        .post('/object-types', {
          title: 'Posts',
          metafields: [{ type: 'text', title: 'Headline', key: 'headline', value: '' }],
        })
        .expect(200);
    },
    COUNTING_COMMANDS,
  );

  const objects = () => objectsCollection(suite.harness.db);

  async function created(body: Record<string, unknown> = {}): Promise<string> {
    const res = await suite.api.post('/objects', { title: 'Post', type: 'posts', ...body }).expect(200);
    return String(res.body.object.id);
  }

  async function stored(id: string): Promise<ObjectDoc> {
    const doc = await objects().findOne({ _id: objectIdFromHex(id)! });
    assert.ok(doc, `Object ${id} is stored`);
    return doc;
  }

  /** How many times `send` read the latest version of an Object: 0 when the app edited from its memo. */
  async function objectReads(send: () => Promise<unknown>): Promise<number> {
    let reads = 0;
    const started = (e: CommandStartedEvent) => {
      if (e.commandName === 'find' && e.command.find === 'objects') reads++;
    };
    suite.harness.client.on('commandStarted', started);
    try {
      await send();
      await suite.harness.settled();
    } finally {
      suite.harness.client.off('commandStarted', started);
    }
    return reads;
  }

  /** A PATCH of Object `id` that must succeed, and how many Object reads it took. */
  const patched = (id: string, body: Record<string, unknown>, app?: RequestListener) =>
    objectReads(() => (app ? bucketClient(app, suite.keys) : suite.api).patch(`/objects/${id}`, body).expect(200));

  it('edits an Object it created, and again, without reading it', async () => {
    const id = await created({ metadata: { headline: 'made' } });
    assert.equal(await patched(id, { title: 'One' }), 0, 'the first edit merges into the version inserted');
    assert.equal(await patched(id, { content: 'Two' }), 0, 'the second into the version the first wrote');
    const after = await stored(id);
    assert.deepEqual([after.title, after.content, after.metadata.headline], ['One', 'Two', 'made']);
  });

  it('merges onto what a direct write put down meanwhile (modified_at moved): both changes stand', async () => {
    const id = await created();
    await patched(id, { title: 'Mine' });
    const before = await stored(id);
    await objects().updateOne(
      { _id: before._id },
      { $set: { content: 'theirs', modified_at: new Date(before.modified_at.getTime() + 1000) } },
    );
    assert.equal(await patched(id, { metadata: { headline: 'mine too' } }), 1, 'read again once the memo missed');
    const after = await stored(id);
    assert.equal(after.content, 'theirs');
    assert.equal(after.metadata.headline, 'mine too');
    assert.equal(after.title, 'Mine');
  });

  it('merges onto what another app on the same database wrote meanwhile', async () => {
    const h = suite.harness;
    const other = createApp({ config: h.config, db: h.db, log: (m) => h.errors.push(m) });
    const id = await created();
    await patched(id, { title: 'From here' });
    await patched(id, { content: 'from there' }, other);
    assert.equal(await patched(id, { metadata: { headline: 'here again' } }), 1);
    const after = await stored(id);
    assert.equal(after.content, 'from there');
    assert.equal(after.metadata.headline, 'here again');
    assert.equal(after.title, 'From here');
    // And the other app, which holds the version it wrote, merges onto this app's edit in turn.
    assert.equal(await patched(id, { title: 'From there' }, other), 1);
    const last = await stored(id);
    assert.equal(last.title, 'From there');
    assert.equal(last.metadata.headline, 'here again');
  });

  it('answers an If-Match naming a version written elsewhere by that version, not the one kept', async () => {
    const id = await created();
    await patched(id, { title: 'Mine' });
    const h = suite.harness;
    const other = bucketClient(createApp({ config: h.config, db: h.db, log: (m) => h.errors.push(m) }), suite.keys);
    const theirs = (await other.patch(`/objects/${id}`, { title: 'Theirs' }).expect(200)).body.object;
    await suite.api
      .patch(`/objects/${id}`, { content: 'over theirs' })
      .set('If-Match', `"${String(theirs.version)}"`)
      .expect(200);
    const after = await stored(id);
    assert.equal(after.title, 'Theirs');
    assert.equal(after.content, 'over theirs');
  });

  it('finishes the work a write left owed on the version before its own (pending is not overwritten)', async () => {
    const id = await created();
    await patched(id, { title: 'Owed' });
    const doc = await stored(id);
    // As a write that died after its commit leaves it: the work carried, its revision not yet made.
    const work = {
      version: doc.modified_at,
      reason: 'edit' as const,
      withdraw: false,
      notify: true,
      since: new Date(),
    };
    await objects().updateOne({ _id: doc._id }, { $set: { pending: work } });
    const revisions = revisionsCollection(suite.harness.db);
    const ofVersion = { object_id: doc._id, created_at: doc.modified_at };
    await revisions.deleteMany(ofVersion);
    // The kept version's commit finds the work owed and writes nothing; the Object is read, its
    // work finished, and read again (as any edit that meets carried work does).
    assert.equal(await patched(id, { title: 'After' }), 2);
    assert.equal(await revisions.countDocuments(ofVersion), 1, 'the owed revision was made');
    assert.equal((await stored(id)).title, 'After');
    assert.equal((await stored(id)).pending, undefined);
  });

  describe('fields other writers change without moving modified_at', () => {
    it('schedule_claim: a scheduler’s release is not undone', async () => {
      const id = await created();
      const _id = objectIdFromHex(id)!;
      const claim = { by: 'another-process', until: new Date(Date.now() + 3600_000) };
      await objects().updateOne({ _id }, { $set: { schedule_claim: claim } });
      await patched(id, { title: 'While claimed' });
      assert.deepEqual((await stored(id)).schedule_claim, claim);
      await objects().updateOne({ _id }, { $set: { schedule_claim: null } });
      assert.equal(await patched(id, { title: 'Released' }), 0, 'served from the memo');
      assert.equal((await stored(id)).schedule_claim, null);
      await objects().updateOne({ _id }, { $set: { schedule_claim: claim } });
      assert.equal(await patched(id, { title: 'Claimed again' }), 0);
      assert.deepEqual((await stored(id)).schedule_claim, claim, 'a claim taken meanwhile stays');
    });

    it('idempotency_key: a key forgotten (expired) is not put back', async () => {
      const res = await suite.api
        .post('/objects', { title: 'Keyed', type: 'posts' })
        .set('Idempotency-Key', 'memo-key-1')
        .expect(200);
      const id = String(res.body.object.id);
      await patched(id, { title: 'Keyed, edited' });
      assert.ok((await stored(id)).idempotency_key);
      await objects().updateOne({ _id: objectIdFromHex(id)! }, { $unset: { idempotency_key: '' } });
      assert.equal(await patched(id, { title: 'Keyed, again' }), 0, 'served from the memo');
      const after = await stored(id);
      assert.equal(after.idempotency_key, undefined);
      assert.ok(after.idempotency_request, 'the request hash stays as it was');
    });

    it('singleton_key: what a singleton switch writes is not undone', async () => {
      await suite.api.post('/object-types', { title: 'Settings', singleton: true }).expect(200);
      const id = await created({ type: 'settings' });
      const _id = objectIdFromHex(id)!;
      await patched(id, { title: 'Site' });
      const key = (await stored(id)).singleton_key;
      assert.ok(key);
      // As the switch writes the Objects, before its generation bump: the memo still answers.
      await objects().updateOne({ _id }, { $unset: { singleton_key: '' } });
      assert.equal(await patched(id, { title: 'Site, freed' }), 0, 'served from the memo');
      assert.equal((await stored(id)).singleton_key, undefined);
      await objects().updateOne({ _id }, { $set: { singleton_key: key } });
      assert.equal(await patched(id, { title: 'Site, held' }), 0);
      assert.equal((await stored(id)).singleton_key, key);
      // The switch itself, through the API: the bump makes the next edit read.
      await suite.api.patch('/object-types/settings', { singleton: false }).expect(200);
      assert.equal(await patched(id, { title: 'Site, edited' }), 1);
      assert.equal((await stored(id)).singleton_key, undefined);
    });

    it('metadata: a Metafield key move is not undone (the memo is kept per Bucket generation)', async () => {
      await suite.api
        .post('/object-types', {
          title: 'Notes',
          metafields: [{ type: 'text', title: 'Summary', key: 'summary', value: '' }],
        })
        .expect(200);
      const id = await created({ type: 'notes', metadata: { summary: 'short' } });
      await patched(id, { title: 'Noted' });
      await suite.api.post('/object-types/notes/metafields/summary/rename', { key: 'teaser' }).expect(200);
      assert.equal(await patched(id, { title: 'Noted again' }), 1, 'the type changed: the version is read');
      const after = await stored(id);
      assert.equal(after.metadata.teaser, 'short');
      assert.equal('summary' in after.metadata, false);
    });

    it('type: an Object type rename is not undone', async () => {
      await suite.api.post('/object-types', { title: 'Pages', slug: 'pages' }).expect(200);
      const id = await created({ type: 'pages' });
      await patched(id, { title: 'Paged' });
      await suite.api.patch('/object-types/pages', { slug: 'leaves' }).expect(200);
      assert.equal(await patched(id, { title: 'Leafed' }), 1);
      const after = await stored(id);
      assert.equal(after.type, 'leaves');
      assert.equal(after.title, 'Leafed');
    });
  });

  it('forgets an Object on delete: an edit after it answers 404', async () => {
    const id = await created();
    await patched(id, { title: 'Doomed' });
    await suite.api.delete(`/objects/${id}`).expect(200);
    await suite.api.patch(`/objects/${id}`, { title: 'Ghost' }).expect(404);
    assert.equal(await objects().countDocuments({ _id: objectIdFromHex(id)! }), 0);
  });
});
