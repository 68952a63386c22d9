import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { bucketsCollection, objectsCollection, objectTypesCollection } from '../../lib/db/collections.js';
import { HttpError } from '../../lib/errors/http-errors.js';
import { repairPendingRenames } from '../../lib/object-types/object-type-rename.js';
import {
  TYPE_WRITE_LEASE,
  typeWriteLeasesCollection,
  withTypeWriteLease,
} from '../../lib/object-types/type-write-lease.js';
import { bucketClient } from '../support/client.js';
import { freshHarness, type Harness } from '../support/harness.js';

type Api = ReturnType<typeof bucketClient>;

/** Every object_type named anywhere in a value (Metafield lists, type lists). */
function objectTypesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(objectTypesIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'object_type' ? [String(v)] : objectTypesIn(v)));
}

describe('Object type renames: crashes, retries and concurrent type writes', () => {
  let h: Harness;

  before(async () => {
    h = await freshHarness();
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  /** A Bucket with authors (two Objects) and posts relating to authors. */
  async function seed(slug: string): Promise<{ api: Api; bucketId: ObjectId; authorIds: string[] }> {
    const api = bucketClient(h.app, await h.bucket(slug));
    await api.post('/object-types', { title: 'Authors' }).expect(200);
    await api
      .post('/object-types', {
        title: 'Posts',
        metafields: [{ type: 'object', title: 'Author', key: 'author', value: '', object_type: 'authors' }],
      })
      .expect(200);
    const authorIds: string[] = [];
    for (const title of ['Ann', 'Bob']) {
      authorIds.push((await api.post('/objects', { title, type: 'authors' }).expect(200)).body.object.id);
    }
    const bucket = await bucketsCollection(h.db).findOne({ slug });
    assert.ok(bucket);
    return { api, bucketId: bucket._id, authorIds };
  }

  /** The state a crash right after the commit point leaves: the type renamed, nothing else. */
  async function crashAfterCommit(bucketId: ObjectId): Promise<void> {
    await objectTypesCollection(h.db).updateOne(
      { bucket_id: bucketId, slug: 'authors' },
      { $set: { slug: 'writers', rename: { from: 'authors', pending: true } } },
    );
  }

  async function assertRenamed(api: Api, bucketId: ObjectId, authorIds: string[]): Promise<void> {
    const types = (await api.get('/object-types').expect(200)).body.object_types;
    assert.deepEqual(
      types.map((t: { slug: string }) => t.slug),
      ['writers', 'posts'],
    );
    assert.deepEqual(objectTypesIn(types), ['writers']);
    const moved = await objectsCollection(h.db).find({ bucket_id: bucketId, type: 'writers' }).toArray();
    assert.deepEqual(moved.map((d) => d._id.toHexString()).sort(), [...authorIds].sort());
    assert.equal(await h.db.collection('revisions').countDocuments({ bucket_id: bucketId, type: 'authors' }), 0);
    assert.equal(await objectTypesCollection(h.db).countDocuments({ 'rename.pending': true }), 0);
    await api.post('/objects', { title: 'P', type: 'posts', metadata: { author: authorIds[0] } }).expect(200);
  }

  it('a retry of the same PATCH completes a rename a crash cut short after its commit point', async () => {
    const { api, bucketId, authorIds } = await seed('crash-retry');
    await crashAfterCommit(bucketId);
    const res = await api.patch('/object-types/authors', { slug: 'writers' }).expect(200);
    assert.equal(res.body.object_type.slug, 'writers');
    await assertRenamed(api, bucketId, authorIds);
  });

  it('a retry after a rename that finished (its answer lost) succeeds again; other fields still apply', async () => {
    const { api, bucketId, authorIds } = await seed('lost-answer');
    await api.patch('/object-types/authors', { slug: 'writers' }).expect(200);
    const again = await api.patch('/object-types/authors', { slug: 'writers', title: 'Writers' }).expect(200);
    assert.equal(again.body.object_type.title, 'Writers');
    await api.patch('/object-types/authors', { title: 'Nope' }).expect(404);
    await assertRenamed(api, bucketId, authorIds);
  });

  it('start-up repair, or any other type write of the Bucket, finishes a pending rename', async () => {
    const a = await seed('repair-start');
    await crashAfterCommit(a.bucketId);
    // Half of step 4 done: one Object moved, the other not.
    await objectsCollection(h.db).updateOne({ _id: new ObjectId(a.authorIds[0]) }, { $set: { type: 'writers' } });
    assert.equal(await repairPendingRenames(h.db), 1);
    await assertRenamed(a.api, a.bucketId, a.authorIds);
    assert.equal(await repairPendingRenames(h.db), 0, 'nothing left to repair');

    const b = await seed('repair-write');
    await crashAfterCommit(b.bucketId);
    await b.api.post('/object-types', { title: 'Tags' }).expect(200);
    await b.api.delete('/object-types/tags').expect(200);
    await assertRenamed(b.api, b.bucketId, b.authorIds);
  });

  it('concurrent type writes never leave a reference to a slug that is gone', async () => {
    // Several rounds: which write runs first differs from round to round.
    for (let round = 0; round < 4; round++) await raceRenameAgainstTypeWrites(`concurrent-${round}`);
  });

  async function raceRenameAgainstTypeWrites(slug: string): Promise<void> {
    const { api } = await seed(slug);
    const relating = (target: string) => [
      { type: 'object', title: 'Author', key: 'author', value: '', object_type: target },
    ];
    const answers = await Promise.all([
      api.patch('/object-types/authors', { slug: 'writers' }),
      api.patch('/object-types/posts', { metafields: relating('authors') }),
      api.post('/object-types', { title: 'Comments', metafields: relating('authors') }),
      api.patch('/object-types/authors', { slug: 'poets' }),
    ]);
    for (const a of answers) assert.ok([200, 400, 404].includes(a.status), `${a.status} ${a.text}`);
    const renames = [answers[0].status, answers[3].status].sort();
    assert.deepEqual(renames, [200, 404], 'one rename wins; the other finds the old slug gone');
    const types = (await api.get('/object-types').expect(200)).body.object_types;
    const slugs = new Set(types.map((t: { slug: string }) => t.slug));
    for (const target of objectTypesIn(types)) assert.ok(slugs.has(target), `${target} is not a type`);
  }

  it('a type write waits for the Bucket lease and is answered 503 with Retry-After while it stays held', async () => {
    const bucketId = new ObjectId();
    await typeWriteLeasesCollection(h.db).insertOne({
      _id: bucketId,
      holder: 'crashed',
      until: new Date(Date.now() + 300),
    });
    const quick = { ...TYPE_WRITE_LEASE, waitMs: 50, pollMs: 10 };
    const refused = await withTypeWriteLease(h.db, bucketId, () => Promise.resolve('ran'), quick).catch(
      (err: unknown) => err,
    );
    assert.ok(refused instanceof HttpError);
    assert.equal(refused.status, 503);
    assert.equal(refused.code, 'type_write_busy');
    assert.ok(refused.headers['Retry-After']);
    // A lapsed lease is taken over; the holder releases it when done.
    const patient = { ...quick, waitMs: 2000 };
    assert.equal(await withTypeWriteLease(h.db, bucketId, () => Promise.resolve('ran'), patient), 'ran');
    assert.equal(await typeWriteLeasesCollection(h.db).countDocuments({ _id: bucketId }), 0);
  });
});
