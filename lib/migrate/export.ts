import type { Db, ObjectId } from 'mongodb';
import {
  objectsCollection,
  publishedObjectsCollection,
  revisionsCollection,
  type BucketDoc,
  type ObjectDoc,
  type ObjectTypeDoc,
} from '../db/collections.js';
import { mediaCollection } from '../store/media.js';
import { readOriginal } from '../store/files.js';
import { MigrationError } from '../errors/domain-errors.js';
import { findBucketBySlug } from '../buckets/buckets.js';
import { listObjectTypes } from '../store/type-reads.js';
import { listWebhooks } from '../webhooks/manage.js';
import type { Manifest, MediaRecord } from './bundle-format.js';
import { BundleWriter } from './bundle-writer.js';
import type { Progress } from './progress.js';
import { mediaRecord, objectRecord, revisionRecord, typeRecord, webhookRecord } from './records.js';

export interface ExportOptions {
  revisions: boolean;
  gzip: boolean;
  progress: Progress;
}

/** Objects read per round trip: bounds what is in memory at once, whatever the Bucket's size. */
const PAGE = 500;

/**
 * Writes one Bucket to a bundle (bundle-format.ts). Everything is read with cursors or keyset
 * pages and written as it is read, so memory stays flat for a Bucket of any size. A Bucket that
 * is written to meanwhile is exported record by record as each is read, not as of one instant.
 */
export async function exportBucket(db: Db, slug: string, file: string, opts: ExportOptions): Promise<Manifest> {
  const bucket = await findBucketBySlug(db, slug);
  if (!bucket) throw new MigrationError(`Bucket "${slug}" does not exist`);
  const writer = await BundleWriter.create();
  try {
    const types = new Map((await listObjectTypes(db, bucket)).map((t) => [t.slug, t]));
    opts.progress.phase('types', types.size);
    for (const type of types.values()) {
      await writer.add('object-types', typeRecord(type));
      opts.progress.tick();
    }
    await exportMedia(db, bucket, writer, opts.progress);
    await exportObjects(db, bucket, types, writer, opts.progress);
    if (opts.revisions) await exportRevisions(db, bucket, types, writer, opts.progress);
    for (const webhook of await listWebhooks(db, bucket)) await writer.add('webhooks', webhookRecord(webhook));
    opts.progress.phase('media files', writer.count('media'));
    const manifest = await writer.finish(file, {
      source: { kind: 'export', id: `bucket:${bucket._id.toHexString()}`, bucket: bucket.slug },
      revisions: opts.revisions,
      gzip: opts.gzip,
      openMedia: (record) => openStoredMedia(db, bucket, record),
      onMediaPacked: () => {
        opts.progress.tick();
      },
    });
    opts.progress.done();
    return manifest;
  } finally {
    await writer.discard();
  }
}

async function exportMedia(db: Db, bucket: BucketDoc, writer: BundleWriter, progress: Progress): Promise<void> {
  const filter = { bucket_id: bucket._id };
  progress.phase('media', await mediaCollection(db).countDocuments(filter));
  for await (const doc of mediaCollection(db).find(filter).sort({ _id: 1 }).batchSize(PAGE)) {
    await writer.add('media', mediaRecord(doc));
    progress.tick();
  }
}

/** Latest versions by keyset pages; the live versions of a page's drafts in one query. */
async function exportObjects(
  db: Db,
  bucket: BucketDoc,
  types: ReadonlyMap<string, ObjectTypeDoc>,
  writer: BundleWriter,
  progress: Progress,
): Promise<void> {
  progress.phase('objects', await objectsCollection(db).countDocuments({ bucket_id: bucket._id }));
  let after: ObjectId | null = null;
  for (;;) {
    const page: ObjectDoc[] = await objectsCollection(db)
      .find({ bucket_id: bucket._id, ...(after && { _id: { $gt: after } }) })
      .sort({ _id: 1 })
      .limit(PAGE)
      .toArray();
    const last = page[page.length - 1];
    if (!last) return;
    const drafts = page.filter((d) => d.status === 'draft').map((d) => d._id);
    const live = new Map(
      drafts.length === 0
        ? []
        : (
            await publishedObjectsCollection(db)
              .find({ _id: { $in: drafts } })
              .toArray()
          ).map((d) => [d._id.toHexString(), d]),
    );
    for (const doc of page) {
      await writer.add('objects', objectRecord(doc, live.get(doc._id.toHexString()) ?? null, types.get(doc.type)));
    }
    progress.tick(page.length);
    after = last._id;
  }
}

/** In the order of objects.ndjson (by Object id), oldest first within an Object. */
async function exportRevisions(
  db: Db,
  bucket: BucketDoc,
  types: ReadonlyMap<string, ObjectTypeDoc>,
  writer: BundleWriter,
  progress: Progress,
): Promise<void> {
  const filter = { bucket_id: bucket._id };
  progress.phase('revisions', await revisionsCollection(db).countDocuments(filter));
  const cursor = revisionsCollection(db).find(filter).sort({ object_id: 1, created_at: 1, _id: 1 }).batchSize(PAGE);
  for await (const rev of cursor) {
    await writer.add('revisions', revisionRecord(rev, types.get(rev.type)));
    progress.tick();
  }
}

/** The stored bytes of a media item, looked up again by name when packed (it may be gone by then). */
async function openStoredMedia(db: Db, bucket: BucketDoc, record: MediaRecord): Promise<AsyncIterable<unknown>> {
  const doc = await mediaCollection(db).findOne({ bucket_id: bucket._id, name: record.name });
  if (!doc) throw new MigrationError(`media "${record.name}" was deleted during the export; export again`);
  return readOriginal(db, doc.file_id);
}
