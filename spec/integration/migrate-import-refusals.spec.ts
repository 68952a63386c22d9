import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { objectsCollection, objectTypesCollection } from '../../lib/db/collections.js';
import { mediaCollection } from '../../lib/store/media.js';
import type { ObjectRecord } from '../../lib/migrate/bundle-format.js';
import { importBundle } from '../../lib/migrate/import.js';
import { SILENT } from '../../lib/migrate/progress.js';
import { findBucketBySlug } from '../../lib/buckets/buckets.js';
import { setPlan } from '../../lib/buckets/plans.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { writeTestBundle, type BundleContent } from '../support/bundle-builder.js';
import { freshHarness, type Harness } from '../support/harness.js';

const types = [
  {
    slug: 'authors',
    title: 'Authors',
    metafields: [{ type: 'text', title: 'Name', key: 'name', value: '', required: true }],
  },
  {
    slug: 'posts',
    title: 'Posts',
    metafields: [
      { type: 'number', title: 'Price', key: 'price', value: '' },
      { type: 'object', title: 'Author', key: 'author', value: '', object_type: 'authors' },
      { type: 'file', title: 'Image', key: 'image', value: '' },
    ],
  },
];
const author = (id: string): ObjectRecord => ({ id, type: 'authors', latest: { title: id, metadata: { name: id } } });
const post = (id: string, metadata: Record<string, unknown>): ObjectRecord => ({
  id,
  type: 'posts',
  latest: { title: id, metadata },
});

describe('bucketctl import: a bad record stops the import before anything is written', () => {
  let h: Harness;
  let dir: string;
  let n = 0;
  const options = { dryRun: false, progress: SILENT, mediaMaxBytes: 1024 * 1024 };
  const deps = () => ({ db: h.db, events: h.writes.events, validators: new MetadataValidators() });

  before(async () => {
    h = await freshHarness();
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'refusals-'));
  });
  after(async () => {
    await fs.promises.rm(dir, { recursive: true, force: true });
    assert.deepEqual(h.errors, []);
  });

  /** Imports `content` into an empty Bucket, expects `message`, and finds the Bucket still empty. */
  async function refused(content: BundleContent, message: RegExp): Promise<void> {
    const file = path.join(dir, `bundle-${++n}.tar`);
    await writeTestBundle(file, content);
    const slug = `empty-${n}`;
    await h.bucket(slug);
    await assert.rejects(importBundle(deps(), slug, file, options), message);
    const bucket = await findBucketBySlug(h.db, slug);
    assert.ok(bucket);
    for (const coll of [objectTypesCollection(h.db), objectsCollection(h.db), mediaCollection(h.db)]) {
      assert.equal(await coll.countDocuments({ bucket_id: bucket._id }), 0, `${coll.collectionName} stays empty`);
    }
    // Into a new Bucket, not even the Bucket is made.
    await assert.rejects(importBundle(deps(), `new-${n}`, file, options), message);
    assert.equal(await findBucketBySlug(h.db, `new-${n}`), null);
  }

  it('names the line and the Metafield of a value the API would refuse, in a later type too', async () => {
    await refused(
      {
        types,
        objects: [author('a1'), author('a2'), post('p1', { price: 3, author: 'a1' }), post('p2', { price: 'cheap' })],
      },
      /objects\.ndjson line 4 \(latest version\): Invalid metadata: invalid value for key "price" of type "number": must be a number/,
    );
  });

  it('names a required value left empty', async () => {
    await refused(
      { types, objects: [author('a1'), { id: 'a2', type: 'authors', latest: { title: 'No name' } }] },
      /objects\.ndjson line 2 \(latest version\): .*"name"/,
    );
  });

  it('names a relationship to an Object of the wrong type', async () => {
    await refused(
      { types, objects: [author('a1'), post('p1', {}), post('p2', { author: 'p1' })] },
      /objects\.ndjson line 3 \(latest version\): .*"author".* is of type "posts", expected "authors"/,
    );
  });

  it('names a revision whose metadata the type refuses', async () => {
    await refused(
      {
        types,
        objects: [post('p1', { price: 1 })],
        revisions: [
          {
            id: 'r1',
            object: 'p1',
            created_at: '2024-01-01T00:00:00.000Z',
            reason: 'create',
            status: 'published',
            title: 'p1',
            metadata: { price: 'x' },
          },
        ],
      },
      /revisions\.ndjson line 1: Invalid metadata: invalid value for key "price"/,
    );
  });

  it('names an Object type the API would refuse', async () => {
    await refused(
      {
        types: [
          types[0] ?? {},
          {
            slug: 'bad',
            title: 'Bad',
            metafields: [{ type: 'object', title: 'X', key: 'x', value: '', object_type: 'nowhere' }],
          },
        ],
      },
      /object-types\.ndjson line 2: .*object_type "nowhere" is not an Object type in this Bucket/,
    );
  });

  it('names an Object of a type the bundle lacks, and a record of the wrong shape', async () => {
    await refused(
      { types, objects: [{ id: 'x', type: 'pages', latest: { title: 'x' } }] },
      /objects\.ndjson line 1: .*"pages", which the bundle lacks/,
    );
    await refused(
      {
        types,
        objects: [author('a1'), { id: 'a2', type: 'authors', latest: { title: 'x' }, extra: 1 } as ObjectRecord],
      },
      /objects\.ndjson line 2: object must NOT have additional properties|objects\.ndjson line 2: .*extra/,
    );
  });

  it('refuses an Object too large to store as one document, naming it, before anything is written', async () => {
    // 17 MB of text: over the 16 MiB a stored document may hold (compressible, so the bundle stays quick).
    const huge: ObjectRecord = {
      id: 'huge',
      type: 'authors',
      latest: { title: 'Huge', slug: 'huge', content: 'lorem ipsum '.repeat(1_500_000), metadata: { name: 'h' } },
    };
    await refused(
      { types, objects: [author('a1'), huge] },
      /objects\.ndjson line 2 \(latest version\): Object "huge" of type "authors" would be stored as 17\.2 MB; a stored Object holds at most 16\.0 MB/,
    );
  }).timeout(120_000);

  it('refuses a file that is not a bundle, and a truncated one', async () => {
    const text = path.join(dir, 'notes.txt');
    await fs.promises.writeFile(text, 'hello');
    await assert.rejects(importBundle(deps(), 'x-text', text, options), /not a (readable )?bundle/);
    const whole = path.join(dir, 'whole.tar');
    await writeTestBundle(whole, { types, objects: Array.from({ length: 200 }, (_, i) => author(`a${i}`)) });
    const bytes = await fs.promises.readFile(whole);
    const cut = path.join(dir, 'cut.tar');
    await fs.promises.writeFile(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await assert.rejects(importBundle(deps(), 'x-cut', cut, options), /damaged|not a readable bundle/);
    assert.equal(await findBucketBySlug(h.db, 'x-cut'), null);
  });

  it('leaves out a reference to what the bundle lacks, with a warning naming it', async () => {
    const file = path.join(dir, 'dangling.tar');
    await writeTestBundle(file, { types, objects: [post('p1', { author: 'gone', image: 'gone.png', price: 2 })] });
    const summary = await importBundle(deps(), 'dangling', file, options);
    assert.deepEqual(summary.warnings, [
      'objects.ndjson line 1 (latest version): author names Object "gone", which the bundle lacks; left out',
      'objects.ndjson line 1 (latest version): image names media "gone.png", which the bundle lacks; left out',
    ]);
    assert.equal(summary.written?.objects, 1);
  });

  it("stops with 402 at the Bucket plan's Object limit, as creates through the API do, and counts what it wrote", async () => {
    const file = path.join(dir, 'over-plan.tar');
    await writeTestBundle(file, { types, objects: [author('a1'), author('a2'), author('a3')] });
    await h.bucket('small-plan');
    await setPlan(h.db, 'small-plan', { max_objects: 2 });
    await assert.rejects(importBundle(deps(), 'small-plan', file, options), /plan allows 2 Objects/);
    const bucket = await findBucketBySlug(h.db, 'small-plan');
    assert.ok(bucket);
    assert.equal(await objectsCollection(h.db).countDocuments({ bucket_id: bucket._id }), 2);
    const usage = await h.db.collection('bucket_usage').findOne({ _id: bucket._id });
    assert.equal(usage?.objects, 2);
  });
});
