import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { objectsCollection } from '../../lib/db/collections.js';
import { mediaCollection } from '../../lib/store/media.js';
import { importBundle } from '../../lib/migrate/import.js';
import { SILENT } from '../../lib/migrate/progress.js';
import { findBucketBySlug } from '../../lib/buckets/buckets.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { withIgnoredEntry, writeTestBundle } from '../support/bundle-builder.js';
import { freshHarness, type Harness } from '../support/harness.js';

const IGNORED_BYTES = 32 * 1024 * 1024;

/**
 * Bytes this process has read through read(2) and its kin, files and sockets alike (Linux only):
 * how much of a bundle an import read, told without timing it.
 */
function bytesRead(): number | null {
  try {
    const match = /^rchar: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

// Counting what was read needs /proc/self/io: elsewhere, the suite is skipped.
const describeOnLinux = bytesRead() === null ? describe.skip : describe;

describeOnLinux('bucketctl import: an entry the bundle format does not use is passed over, not read', () => {
  let h: Harness;
  let dir: string;
  let base: string;
  const options = { dryRun: false, progress: SILENT, mediaMaxBytes: 1024 * 1024 };
  const deps = () => ({ db: h.db, events: h.writes.events, validators: new MetadataValidators() });
  const image = Buffer.from('not really a png');

  before(async () => {
    h = await freshHarness();
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ignored-'));
    base = path.join(dir, 'base.tar');
    await writeTestBundle(base, {
      types: [
        { slug: 'notes', title: 'Notes', metafields: [{ type: 'file', title: 'Image', key: 'image', value: '' }] },
      ],
      media: [
        { record: { name: 'a.png', original_name: 'a.png', type: 'image/png', size: image.length }, bytes: image },
      ],
      objects: ['one', 'two', 'three'].map((id) => ({
        id,
        type: 'notes',
        latest: { title: id, metadata: { image: 'a.png' } },
      })),
    });
  });
  after(async () => {
    await fs.promises.rm(dir, { recursive: true, force: true });
    assert.deepEqual(h.errors, []);
  });

  /** Imports `base` with a 32 MiB entry after its manifest; returns how many bytes the import read. */
  async function importWithIgnored(slug: string, gzip: boolean): Promise<number> {
    const file = path.join(dir, `${slug}.${gzip ? 'tgz' : 'tar'}`);
    await withIgnoredEntry(base, file, { name: 'extra/ignored.bin', bytes: IGNORED_BYTES, gzip });
    const before = bytesRead() ?? 0;
    const summary = await importBundle(deps(), slug, file, options);
    const read = (bytesRead() ?? 0) - before;
    assert.deepEqual(summary.written, { types: 1, media: 1, objects: 3, versions: 3, webhooks: 0 });
    const bucket = await findBucketBySlug(h.db, slug);
    assert.ok(bucket);
    assert.equal(await objectsCollection(h.db).countDocuments({ bucket_id: bucket._id }), 3);
    assert.equal(await mediaCollection(h.db).countDocuments({ bucket_id: bucket._id }), 1);
    return read;
  }

  it('a plain tar: the entry is skipped by its size, none of its bytes read', async () => {
    const read = await importWithIgnored('plain', false);
    // Before, each of the import's passes over the bundle read the entry through: 8 times its size.
    assert.ok(read < IGNORED_BYTES / 4, `the import read ${read} bytes`);
  }).timeout(60_000);

  it('a gzipped tar: the entry is inflated (a gzip stream cannot be entered mid-way), but only twice', async () => {
    const read = await importWithIgnored('gzipped', true);
    // Once while the sections are spooled at open, once on the way to the media files.
    assert.ok(read < 3 * IGNORED_BYTES, `the import read ${read} bytes`);
  }).timeout(60_000);
});
