import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import {
  bucketsCollection,
  objectsCollection,
  publishedObjectsCollection,
  revisionsCollection,
  type BucketDoc,
} from '../../lib/db/collections.js';
import { HttpError } from '../../lib/errors/http-errors.js';
import { EDIT_ATTEMPTS } from '../../lib/objects/write/object-edit.js';
import { updateObject } from '../../lib/objects/write/object-writes.js';
import { putLive } from '../../lib/objects/objects.js';
import { removeObject } from '../../lib/objects/write/object-delete.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { interceptWrites } from '../support/intercept-writes.js';
import { BucketSuite } from '../support/bucket-suite.js';

/** Two editors changing different keys of one Object at once must both keep their change. */
describe('concurrent edits of one Object', () => {
  let bucket: BucketDoc;
  const suite = new BucketSuite('edits', async () => {
    await suite.api
      .post('/object-types', {
        title: 'Posts',
        metafields: [
          { type: 'text', title: 'Body', key: 'body', value: '' },
          { type: 'number', title: 'Score', key: 'score', value: '' },
        ],
      })
      .expect(200);
    const found = await bucketsCollection(suite.harness.db).findOne({ slug: 'edits' });
    assert.ok(found);
    bucket = found;
  });

  async function newPost(): Promise<string> {
    const res = await suite.api.post('/objects', { title: 'P', type: 'posts', metadata: { body: 'b0', score: 0 } });
    assert.equal(res.status, 200);
    // The work the create put off until after its answer has run before the test interleaves writes.
    await suite.harness.settled();
    return String(res.body.object.id);
  }

  async function views(id: string) {
    const latest = await suite.api.get(`/objects/${id}?status=any&useCache=false`).expect(200);
    const live = await suite.api.get(`/objects/${id}?useCache=false`).expect(200);
    return { latest: latest.body.object.metadata, live: live.body.object.metadata };
  }

  /**
   * A Db whose first update of an Object waits for `meanwhile` to run first: that update is an
   * edit's commit or a delete's claim, an upsert over the version read (version-write.ts,
   * delete-write.ts). `ran` says whether it did.
   */
  function beforeFirstCommit(meanwhile: () => Promise<unknown>) {
    let ran = false;
    const db = interceptWrites(suite.harness.db, async ({ collection, method }) => {
      if (ran || collection !== 'objects' || method !== 'updateOne') return;
      ran = true;
      await meanwhile();
    });
    return { db, ran: () => ran };
  }

  /** Nothing of Object `id` is left: no latest version, live copy or revision. */
  async function assertGone(id: string) {
    const oid = new ObjectId(id);
    assert.equal(await objectsCollection(suite.harness.db).countDocuments({ _id: oid }), 0);
    assert.equal(await publishedObjectsCollection(suite.harness.db).countDocuments({ _id: oid }), 0);
    assert.equal(await revisionsCollection(suite.harness.db).countDocuments({ object_id: oid }), 0);
  }

  it('a PATCH whose Object changed between its read and its write merges again from the new version', async () => {
    const id = await newPost();
    // Another PATCH lands after this one read the Object, just before it writes.
    const { db, ran } = beforeFirstCommit(() =>
      suite.api.patch(`/objects/${id}`, { metadata: { score: 7 } }).expect(200),
    );
    const doc = await updateObject({ ...suite.harness.writes, db, validators: new MetadataValidators() }, bucket, id, {
      metadata: { body: 'b1' },
    });
    assert.equal(ran(), true);
    assert.deepEqual(doc.metadata, { body: 'b1', score: 7 });
    assert.deepEqual(await views(id), { latest: { body: 'b1', score: 7 }, live: { body: 'b1', score: 7 } });
    // create, the interleaved PATCH, this one: no revision lost or doubled by the retry.
    assert.equal(await revisionsCollection(suite.harness.db).countDocuments({ object_id: doc._id }), 3);
  });

  it('PATCHes sent at once, each changing another key, are all kept in the latest and the live version', async () => {
    const id = await newPost();
    for (let round = 1; round <= 10; round++) {
      const [a, b] = await Promise.all([
        suite.api.patch(`/objects/${id}`, { metadata: { body: `b${round}` } }),
        suite.api.patch(`/objects/${id}`, { metadata: { score: round } }),
      ]);
      assert.deepEqual([a.status, b.status], [200, 200]);
      const expected = { body: `b${round}`, score: round };
      assert.deepEqual(await views(id), { latest: expected, live: expected }, `round ${round}`);
    }
  });

  it('gives up with 409 conflict when other writes keep landing first, and changes nothing', async () => {
    const id = await newPost();
    let others = 0;
    const db = interceptWrites(suite.harness.db, async ({ collection, method }) => {
      // Each attempt's commit (none gets further).
      if (collection === 'objects' && method === 'updateOne') {
        others++;
        await suite.api.patch(`/objects/${id}`, { metadata: { score: others } }).expect(200);
      }
    });
    const attempt = updateObject({ ...suite.harness.writes, db, validators: new MetadataValidators() }, bucket, id, {
      metadata: { body: 'never' },
    });
    await assert.rejects(attempt, (err: unknown) => err instanceof HttpError && err.status === 409);
    assert.equal(others, EDIT_ATTEMPTS);
    assert.deepEqual((await views(id)).latest, { body: 'b0', score: EDIT_ATTEMPTS });
  });

  it('never puts an older version over a newer live one (writes may finish their steps in either order)', async () => {
    const id = await newPost();
    await suite.api.patch(`/objects/${id}`, { title: 'P newer' }).expect(200);
    const stored = await objectsCollection(suite.harness.db).findOne({ _id: new ObjectId(id) });
    assert.ok(stored);
    await putLive(suite.harness.db, {
      ...stored,
      title: 'P older',
      modified_at: new Date(stored.modified_at.getTime() - 1000),
    });
    assert.equal((await publishedObjectsCollection(suite.harness.db).findOne({ _id: stored._id }))?.title, 'P newer');
  });

  it('a delete landing between an edit’s read and its commit: 404, and the edit brings nothing back', async () => {
    const id = await newPost();
    // The commit is an upsert that must not insert: here it finds no Object at all.
    const { db } = beforeFirstCommit(() => suite.api.delete(`/objects/${id}`).expect(200));
    const attempt = updateObject({ ...suite.harness.writes, db, validators: new MetadataValidators() }, bucket, id, {
      title: 'back?',
    });
    await assert.rejects(attempt, (err: unknown) => err instanceof HttpError && err.status === 404);
    await assertGone(id);
    assert.equal(await objectsCollection(suite.harness.db).countDocuments({ title: 'back?' }), 0);
  });

  it('an edit landing between a delete’s read and its claim: the delete reads again and deletes the new version', async () => {
    const id = await newPost();
    // The delete's claim, over the version it read.
    const { db, ran } = beforeFirstCommit(() =>
      suite.api.patch(`/objects/${id}`, { title: 'edited meanwhile' }).expect(200),
    );
    await removeObject({ ...suite.harness.writes, db }, bucket, id, true);
    assert.equal(ran(), true);
    await assertGone(id);
    const deleted = suite.harness.emitted.filter((e) => e.type === 'object.deleted' && e.subjectId === id);
    assert.equal(deleted.length, 1);
    assert.equal((deleted[0]?.data as { title: string }).title, 'edited meanwhile', 'the event shows what was deleted');
  });

  it('two deletes of one Object at once: one deletes it, the other answers 404', async () => {
    const id = await newPost();
    const answers = await Promise.all([suite.api.delete(`/objects/${id}`), suite.api.delete(`/objects/${id}`)]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 404]);
  });

  it('a delete landing between an edit and its live copy leaves neither live copy nor revisions behind', async () => {
    const id = await newPost();
    let deleted = false;
    const db = interceptWrites(suite.harness.db, async ({ collection }) => {
      if (collection === 'published_objects' && !deleted) {
        deleted = true;
        await suite.api.delete(`/objects/${id}`).expect(200);
      }
    });
    await updateObject({ ...suite.harness.writes, db, validators: new MetadataValidators() }, bucket, id, {
      title: 'late',
    });
    assert.equal(deleted, true);
    const oid = new ObjectId(id);
    assert.equal(await publishedObjectsCollection(suite.harness.db).countDocuments({ _id: oid }), 0);
    assert.equal(await revisionsCollection(suite.harness.db).countDocuments({ object_id: oid }), 0);
    await suite.api.get(`/objects/${id}?status=any`).expect(404);
  });
});
