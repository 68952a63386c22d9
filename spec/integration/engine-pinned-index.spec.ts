import assert from 'node:assert/strict';
import { MongoClient, ObjectId, type Db, type Filter } from 'mongodb';
import { javaEngineAvailable } from '../support/engine-helpers.js';
import { acrossH2Restart } from '../support/h2-restart.js';
import { testEngine } from '../support/test-engine.js';

interface Doc {
  _id: ObjectId | number | string;
  bucket_id: ObjectId;
  version: number;
  slug?: string;
  tags?: string[];
  codes?: string[];
}

const mine = new ObjectId();
const theirs = new ObjectId();
const [a, b, c] = [new ObjectId(), new ObjectId(), new ObjectId()];

/**
 * Filters that pin the fields of a unique index (`_id`, a compound one, a multikey one) beside
 * other fields: the shape of the service's conditional writes, Bucket-scoped lookups and rate
 * limit windows. The embedded engine's launcher serves them from that index
 * (lib/db/java/PinnedIndexPlan.java); each must select exactly what the same filter under `$and`
 * (which the engine answers without that plan, by a scan) selects.
 */
const filters: Filter<Doc>[] = [
  { _id: a, bucket_id: mine },
  { _id: a, bucket_id: theirs },
  { _id: b, bucket_id: mine, version: 2 },
  { _id: b, bucket_id: mine, version: 3 },
  { _id: { $in: [a, c, 7, 'missing'] }, bucket_id: mine },
  { _id: { $in: [] }, bucket_id: mine },
  { _id: 7, tags: 'b' },
  { _id: 'seven', version: { $gt: 1 } },
  { _id: { $ne: a }, bucket_id: mine },
  { _id: { $in: [a, b] }, bucket_id: mine, $or: [{ version: 1 }, { tags: 'a' }] },
  { bucket_id: mine, slug: 'one', version: 1 },
  { bucket_id: theirs, slug: 'one', version: { $gte: 1 } },
  { bucket_id: mine, slug: { $in: ['one', 'two'] }, version: 1 },
  { codes: 'y', version: { $gt: 0 } },
  { codes: { $in: ['x', 'z', 'nope'] }, bucket_id: mine },
  { codes: ['x', 'y'], version: 1 },
  { slug: 'one', $or: [{ version: 1 }, { version: 2 }] },
];

async function seed(db: Db): Promise<void> {
  const docs = db.collection<Doc>('pinned_index');
  await docs.deleteMany({});
  await docs.createIndex({ bucket_id: 1, slug: 1 }, { unique: true }, undefined);
  await docs.createIndex({ codes: 1 }, { unique: true, sparse: true }, undefined);
  await docs.insertMany([
    { _id: a, bucket_id: mine, version: 1, slug: 'one', tags: ['a'], codes: ['x', 'y'] },
    { _id: b, bucket_id: mine, version: 2, slug: 'two' },
    { _id: c, bucket_id: theirs, version: 1, slug: 'one', codes: ['z'] },
    { _id: 7, bucket_id: mine, version: 5, tags: ['a', 'b'] },
    { _id: 'seven', bucket_id: theirs, version: 2 },
  ]);
}

async function expectSameAsScan(db: Db): Promise<void> {
  await seed(db);
  const docs = db.collection<Doc>('pinned_index');
  for (const filter of filters) {
    const fast = await docs.find(filter).toArray();
    const scanned = await docs.find({ $and: [filter] }).toArray();
    const key = (list: Doc[]) => list.map((d) => String(d._id)).sort();
    assert.deepEqual(key(fast), key(scanned), `find ${JSON.stringify(filter)}`);
  }
  // Conditional writes: a stale version or another Bucket changes nothing.
  assert.equal(
    (await docs.updateOne({ _id: b, bucket_id: mine, version: 1 }, { $set: { version: 9 } })).matchedCount,
    0,
  );
  assert.equal((await docs.updateOne({ _id: b, bucket_id: theirs }, { $set: { version: 9 } })).matchedCount, 0);
  assert.equal(
    (await docs.updateOne({ _id: b, bucket_id: mine, version: 2 }, { $set: { version: 3 } })).modifiedCount,
    1,
  );
  assert.equal((await docs.replaceOne({ _id: 7, bucket_id: mine }, { bucket_id: mine, version: 6 })).modifiedCount, 1);
  assert.equal((await docs.deleteMany({ _id: { $in: [a, c] }, bucket_id: mine })).deletedCount, 1);
  const left = await docs.find({}, { sort: { version: 1 } }).toArray();
  assert.deepEqual(
    left.map((d) => [String(d._id), d.version]),
    [
      [String(c), 1],
      ['seven', 2],
      [String(b), 3],
      ['7', 6],
    ],
  );
}

describe('embedded engine: filters pinning a unique index beside other fields', function () {
  this.timeout(120_000);

  it('select and write what a scan would, on the test engine', async () => {
    const client = new MongoClient(testEngine().uri);
    try {
      await expectSameAsScan(client.db('pinned_index_memory'));
    } finally {
      await client.close();
    }
  });

  it('select and write what a scan would, on the H2 backend, and again after a restart', async function () {
    if (!javaEngineAvailable()) this.skip();
    await acrossH2Restart('pinned_index_h2', async (db, run) => {
      if (run === 1) {
        // The first engine's last writes, read through the reopened file.
        const kept = await db.collection<Doc>('pinned_index').findOne({ _id: b, bucket_id: mine });
        assert.equal(kept?.version, 3);
      }
      await expectSameAsScan(db);
    });
  });
});
