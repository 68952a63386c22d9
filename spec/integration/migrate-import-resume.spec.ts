import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { objectsCollection, revisionsCollection } from '../../lib/db/collections.js';
import { mediaCollection } from '../../lib/store/media.js';
import { exportBucket } from '../../lib/migrate/export.js';
import { importBundle } from '../../lib/migrate/import.js';
import { SILENT } from '../../lib/migrate/progress.js';
import { findBucketBySlug } from '../../lib/buckets/buckets.js';
import { DomainEvents } from '../../lib/events/domain-events.js';
import { pendingWritesCollection } from '../../lib/objects/write/legacy-markers.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { webhooksCollection } from '../../lib/store/webhooks.js';
import { snapshot } from '../support/bucket-snapshot.js';
import { type Harness } from '../support/harness.js';
import { seedEveryKind } from '../support/migrate-fixture.js';
import { BucketSuite } from '../support/bucket-suite.js';

/** Events of the target Bucket's writes; the sink fails the import after the nth, as a crash after a commit would. */
function failingAfter(h: Harness, n: number): DomainEvents {
  const events = new DomainEvents(h.config);
  let seen = 0;
  events.addSink(() => {
    seen++;
    if (seen === n) return Promise.reject(new Error(`simulated crash after event ${n}`));
    return Promise.resolve();
  });
  return events;
}

describe('bucketctl import: an interrupted import continues without duplicates', () => {
  let dir: string;
  let bundle: string;
  const options = { dryRun: false, progress: SILENT, mediaMaxBytes: 50 * 1024 * 1024 };

  const suite = new BucketSuite('source', async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'resume-'));
    await seedEveryKind(suite.harness.app, suite.keys);
    bundle = path.join(dir, 'source.tar');
    await exportBucket(suite.harness.db, 'source', bundle, { revisions: true, gzip: false, progress: SILENT });
  });
  after(async () => {
    await fs.promises.rm(dir, { recursive: true, force: true });
  });

  it('stops mid-type, mid-media and mid-history, then a rerun finishes with each thing once', async () => {
    const deps = (events: DomainEvents) => ({ db: suite.harness.db, events, validators: new MetadataValidators() });
    // Counted per run: after the first type; after the second media item; after the first version of
    // an Object with four; then after its second (the rerun first repairs the crashed version).
    for (const n of [1, 4, 9, 3]) {
      await assert.rejects(
        importBundle(deps(failingAfter(suite.harness, n)), 'target', bundle, options),
        /simulated crash/,
      );
    }
    const target = await findBucketBySlug(suite.harness.db, 'target');
    assert.ok(target);
    /** Work crashed writes left: markers, and versions carrying their follow-ups (version-write.ts). */
    const owed = async () =>
      (await pendingWritesCollection(suite.harness.db).countDocuments({ bucket_id: target._id })) +
      (await objectsCollection(suite.harness.db).countDocuments({ bucket_id: target._id, pending: { $exists: true } }));
    assert.ok((await owed()) > 0);
    assert.ok((await objectsCollection(suite.harness.db).countDocuments({ bucket_id: target._id })) < 7);

    const summary = await importBundle(deps(suite.harness.writes.events), 'target', bundle, options);
    assert.equal(summary.resumed, true);
    assert.ok(summary.written && summary.written.objects < 7, 'the rerun wrote only what was left');

    const count = async (coll: 'objects' | 'revisions' | 'media' | 'webhooks', bucketId = target._id) => {
      const c = {
        objects: objectsCollection(suite.harness.db),
        revisions: revisionsCollection(suite.harness.db),
        media: mediaCollection(suite.harness.db),
        webhooks: webhooksCollection(suite.harness.db),
      }[coll];
      return c.countDocuments({ bucket_id: bucketId });
    };
    const src = await findBucketBySlug(suite.harness.db, 'source');
    assert.ok(src);
    for (const coll of ['objects', 'revisions', 'media', 'webhooks'] as const) {
      assert.equal(await count(coll), await count(coll, src._id), `${coll} of the target`);
    }
    assert.equal(await owed(), 0);
    // The keys were printed by the first run, which the test let fail: open the Bucket to reads instead.
    await suite.harness.db.collection('buckets').updateOne({ _id: target._id }, { $set: { read_key_hash: null } });
    const keys = { slug: 'target', read_key: null, write_key: null };
    assert.deepEqual(await snapshot(suite.harness.app, keys), await snapshot(suite.harness.app, suite.keys));
  });
});
