import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { revisionsCollection } from '../../lib/db/collections.js';
import { SILENT } from '../../lib/migrate/progress.js';
import { pullBucket, type PullOptions } from '../../lib/migrate/pull.js';
import { findBucketBySlug, type IssuedKeys } from '../../lib/buckets/buckets.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { snapshot, type Snapshot } from '../support/bucket-snapshot.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { seedEveryKind } from '../support/migrate-fixture.js';

/** A snapshot without revisions: the public API does not list history, so a pull starts it afresh. */
function withoutHistory(s: Snapshot): Omit<Snapshot, 'objects'> & { objects: Record<string, unknown> } {
  return { ...s, objects: Object.fromEntries(Object.entries(s.objects).map(([k, v]) => [k, v.object])) };
}

describe('bucketctl pull: copies a Bucket from another instance through its public routes', () => {
  let server: http.Server;
  let origin: Harness;
  let local: Harness;
  let source: IssuedKeys;
  let from: string;

  before(async () => {
    // The source listens on a real port: pull reads it, and downloads its media, as any client would.
    server = http.createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    from = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    origin = await freshHarness({ PUBLIC_URL: from }, 'content_api_pull_origin');
    server.on('request', origin.app);
    local = await freshHarness();
    source = await origin.bucket('remote');
    await seedEveryKind(origin.app, source);
  });
  after(async () => {
    server.close();
    // fetch keeps its connections alive; they would hold close() until they idle out.
    server.closeAllConnections();
    await once(server, 'close');
    assert.deepEqual(origin.errors, []);
    assert.deepEqual(local.errors, []);
  });

  const pull = (opts: Partial<PullOptions> & Pick<PullOptions, 'into' | 'readKey'>) =>
    pullBucket(
      { db: local.db, events: local.writes.events, validators: new MetadataValidators() },
      {
        from: `${from}/v3`,
        bucket: 'remote',
        dryRun: false,
        pageSize: 3,
        mediaMaxBytes: 1 << 20,
        progress: SILENT,
        ...opts,
      },
    );

  it('with the write key: every Object in every status, the media and the types, answered alike', async () => {
    const summary = await pull({ into: 'copy', readKey: source.read_key ?? '', writeKey: source.write_key ?? '' });
    assert.deepEqual(summary.warnings, []);
    assert.deepEqual({ ...summary.written, versions: 0 }, { types: 2, media: 3, objects: 7, versions: 0, webhooks: 0 });
    const copy = summary.created_bucket;
    assert.ok(copy);
    assert.deepEqual(
      withoutHistory(await snapshot(local.app, copy)),
      withoutHistory(await snapshot(origin.app, source)),
    );
    // History starts at the pull: one version, two for an Object with a draft over its live version.
    const bucket = await findBucketBySlug(local.db, 'copy');
    assert.ok(bucket);
    assert.equal(await revisionsCollection(local.db).countDocuments({ bucket_id: bucket._id }), 7 + 1);
  });

  it('with the read key only: the live versions, and relationships to drafts left out with a warning', async () => {
    const summary = await pull({ into: 'live-only', readKey: source.read_key ?? '' });
    const copy = summary.created_bucket;
    assert.ok(copy);
    const mine = await snapshot(local.app, copy);
    const theirs = await snapshot(origin.app, source);
    type Listed = { objects: { id: string; title: string; status: string; modified_at: string }[] };
    const brief = (l: unknown) => (l as Listed).objects.map((o) => [o.id, o.title, o.status, o.modified_at]);
    assert.deepEqual(brief(mine.lists['status=any']), brief(theirs.lists['status=published']));
    assert.deepEqual(mine.types, theirs.types);
    assert.ok(summary.warnings.length > 0);
    for (const w of summary.warnings) assert.match(w, /names Object "[0-9a-f]{24}", which the bundle lacks; left out$/);
  });

  it('a rerun of a finished pull changes nothing; a wrong key is refused with the remote answer', async () => {
    const again = await pull({ into: 'copy', readKey: source.read_key ?? '', writeKey: source.write_key ?? '' });
    assert.equal(again.already_imported, true);
    await assert.rejects(pull({ into: 'nope', readKey: 'wrong-key' }), /object-types\?read_key=%E2%80%A6 answered 401/);
    assert.equal(await findBucketBySlug(local.db, 'nope'), null);
  });
});
