import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { revisionsCollection } from '../../lib/db/collections.js';
import { exportBucket } from '../../lib/migrate/export.js';
import { importBundle } from '../../lib/migrate/import.js';
import { SILENT } from '../../lib/migrate/progress.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { snapshot, readClient } from '../support/bucket-snapshot.js';
import { seedEveryKind } from '../support/migrate-fixture.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('bucketctl export → import: a round trip answers alike', () => {
  let dir: string;
  let bundle: string;
  const options = { dryRun: false, progress: SILENT, mediaMaxBytes: 50 * 1024 * 1024 };
  const deps = () => ({
    db: suite.harness.db,
    events: suite.harness.writes.events,
    validators: new MetadataValidators(),
  });

  const suite = new BucketSuite('source', async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'roundtrip-'));
    await seedEveryKind(suite.harness.app, suite.keys);
    bundle = path.join(dir, 'source.tar.gz');
    await exportBucket(suite.harness.db, 'source', bundle, { revisions: true, gzip: true, progress: SILENT });
  });
  after(async () => {
    await fs.promises.rm(dir, { recursive: true, force: true });
  });

  it('writes a gzipped tar led by a manifest with exact counts, and no secret', async () => {
    const raw = zlib.gunzipSync(await fs.promises.readFile(bundle));
    const text = raw.toString('latin1');
    assert.equal(raw.subarray(0, 13).toString(), 'manifest.json');
    const manifest = JSON.parse(text.slice(512, text.indexOf('\n}\n', 512) + 2)) as {
      counts: Record<string, number> & { media_bytes: number };
    };
    assert.deepEqual(manifest.counts, {
      'object-types': 2,
      media: 3,
      objects: 7,
      revisions: await revisionsCollection(suite.harness.db).countDocuments(),
      webhooks: 1,
      media_bytes: manifest.counts.media_bytes,
    });
    assert.ok(manifest.counts.media_bytes > 5000);
    assert.ok(text.includes('"header_names":["Authorization"]'));
    assert.ok(!text.includes('header-secret-value'), 'a header value left the Bucket');
    assert.ok(!text.includes('whsec_'), 'the signing secret left the Bucket');
  });

  it('imports into a new Bucket that answers every read as the source does', async () => {
    const summary = await importBundle(deps(), 'copy', bundle, options);
    assert.ok(summary.created_bucket?.read_key);
    assert.deepEqual(summary.warnings, []);
    assert.deepEqual(summary.written, {
      types: 2,
      media: 3,
      objects: 7,
      versions: summary.checked?.versions,
      webhooks: 1,
    });
    const copy = summary.created_bucket;
    assert.deepEqual(await snapshot(suite.harness.app, copy), await snapshot(suite.harness.app, suite.keys));
  });

  it('brings webhooks over disabled, without their secrets', async () => {
    const copy = { slug: 'copy2', read_key: null, write_key: null };
    await suite.harness.bucket('copy2', { kind: 'none' }, { kind: 'none' });
    await importBundle(deps(), 'copy2', bundle, options);
    const hooks = (await readClient(suite.harness.app, copy)('/webhooks').expect(200)).body.webhooks as Record<
      string,
      unknown
    >[];
    assert.equal(hooks.length, 1);
    assert.deepEqual(
      { ...hooks[0], id: undefined, created_at: undefined, modified_at: undefined },
      {
        id: undefined,
        created_at: undefined,
        modified_at: undefined,
        title: 'Search index',
        endpoint: 'https://hooks.example.com/in',
        events: ['object.created', 'object.edited'],
        object_types: ['posts'],
        props: null,
        payload: true,
        headers: {},
        enabled: false,
        disabled_reason: null,
        consecutive_failures: 0,
        paused_until: null,
      },
    );
  });

  it('does nothing when run again after it finished', async () => {
    const again = await importBundle(deps(), 'copy', bundle, options);
    assert.equal(again.already_imported, true);
    assert.equal(again.written, undefined);
  });

  it('refuses a Bucket that already holds content, naming what it holds', async () => {
    await assert.rejects(
      importBundle(deps(), 'source', bundle, options),
      /Bucket "source" is not empty \(2 Object types, 7 Objects, 3 media\)/,
    );
  });

  it('a dry run checks everything and writes nothing, not even the Bucket', async () => {
    const summary = await importBundle(deps(), 'never', bundle, { ...options, dryRun: true });
    assert.equal(summary.checked?.objects, 7);
    assert.equal(summary.written, undefined);
    await readClient(suite.harness.app, { slug: 'never', read_key: null, write_key: null })('/blocks').expect(404);
  });
});
