import { ObjectId, type Db } from 'mongodb';
import { objectsCollection, objectTypesCollection, type BucketDoc, type ObjectTypeDoc } from '../db/collections.js';
import { mediaCollection } from '../store/media.js';
import { MigrationError } from '../errors/domain-errors.js';
import { recordBlock } from '../blocks/blocks.js';
import { BUCKET_SLUG_PATTERN, createBucket, findBucketBySlug, type IssuedKeys } from '../buckets/buckets.js';
import { listObjectTypes } from '../store/type-reads.js';
import type { ObjectWriteDeps } from '../objects/write/object-writes.js';
import type { Manifest } from './bundle-format.js';
import { BundleReader } from './bundle-reader.js';
import { importKey } from './id-plan.js';
import { checkBundle, type CheckedCounts } from './import-check.js';
import { indexBundle } from './import-index.js';
import { beginImport, finishImport, findImport } from './import-record.js';
import { plannedContent, type ImportRun } from './import-run.js';
import { writeBundle, type WrittenCounts } from './import-write.js';
import type { Progress } from './progress.js';

export interface ImportOptions {
  dryRun: boolean;
  progress: Progress;
  /** The largest media file stored (MEDIA_MAX_BYTES). */
  mediaMaxBytes: number;
  /** Install a Block: into a Bucket that exists, beside what it holds, and record the Block. */
  block?: boolean;
}

export interface ImportSummary {
  bucket: string;
  bundle: string;
  dry_run: boolean;
  /** The keys of the Bucket the import created (shown once, like create-bucket's). */
  created_bucket?: IssuedKeys;
  /** An earlier run finished this import: nothing was done. */
  already_imported?: boolean;
  /** An earlier run was interrupted: this one continued it. */
  resumed: boolean;
  checked?: CheckedCounts;
  written?: WrittenCounts;
  warnings: string[];
}

/**
 * Imports a bundle into a new or empty Bucket (or, as a Block, beside what a Bucket holds):
 * reads its index, checks every record (dry run: stops there), then writes. The same source into
 * the same Bucket is one import: rerunning one that was interrupted continues it, rerunning one
 * that finished does nothing.
 */
export async function importBundle(
  deps: ObjectWriteDeps,
  slug: string,
  file: string,
  opts: ImportOptions,
): Promise<ImportSummary> {
  if (!BUCKET_SLUG_PATTERN.test(slug)) throw new MigrationError(`Invalid bucket slug "${slug}"`);
  const reader = await BundleReader.open(file);
  try {
    return await importFrom(deps, slug, reader, opts);
  } finally {
    await reader.close();
  }
}

async function importFrom(
  deps: ObjectWriteDeps,
  slug: string,
  reader: BundleReader,
  opts: ImportOptions,
): Promise<ImportSummary> {
  const { db } = deps;
  const { manifest, file } = reader;
  const summary: ImportSummary = {
    bucket: slug,
    bundle: manifest.bundle_id,
    dry_run: opts.dryRun,
    resumed: false,
    warnings: [],
  };
  if (opts.block && !manifest.block) throw new MigrationError(`${file} is not a Block: its manifest names no block`);
  let bucket = await findBucketBySlug(db, slug);
  if (opts.block && !bucket) throw new MigrationError(`Bucket "${slug}" does not exist; create it first`);
  const key = importKey(slug, manifest.source.id);
  const previous = bucket ? await findImport(db, key) : null;
  if (previous?.finished_at) return { ...summary, already_imported: true };
  summary.resumed = previous !== null;

  const index = await indexBundle(reader, key, opts.progress);
  const bundleSlugs = new Set(index.types.map((t) => t.record.slug));
  const otherTypes = new Map<string, ObjectTypeDoc>();
  if (bucket) {
    for (const t of await listObjectTypes(db, bucket))
      if (!previous || !bundleSlugs.has(t.slug)) otherTypes.set(t.slug, t);
    if (!previous) await assertRoom(db, bucket, manifest, otherTypes, bundleSlugs, opts.block === true);
  }
  const run: ImportRun = {
    deps,
    reader,
    index,
    bucket: bucket ?? standIn(slug),
    planned: plannedContent(index),
    progress: opts.progress,
    warnings: new Set(),
    otherTypes,
    mediaMaxBytes: opts.mediaMaxBytes,
  };
  try {
    summary.checked = await checkBundle(run);
    if (opts.dryRun) return summary;
    if (!bucket) {
      summary.created_bucket = await createBucket(db, slug, { kind: 'generate' }, { kind: 'generate' });
      bucket = await findBucketBySlug(db, slug);
      if (!bucket) throw new MigrationError(`Bucket "${slug}" vanished as it was created`);
      run.bucket = bucket;
    }
    await beginImport(db, {
      _id: key,
      bucket_id: bucket._id,
      source: manifest.source,
      ...(manifest.block && { block: manifest.block }),
      bundle_id: manifest.bundle_id,
    });
    summary.written = await writeBundle(run);
    if (opts.block && manifest.block) {
      await recordBlock(deps, bucket, { ...manifest.block, object_types: [...bundleSlugs] });
    }
    await finishImport(db, key);
    return summary;
  } finally {
    summary.warnings = [...run.warnings];
    opts.progress.done();
  }
}

/** A Bucket not created yet, for a dry run: nothing in the database belongs to it. */
function standIn(slug: string): BucketDoc {
  const now = new Date();
  return {
    _id: new ObjectId(),
    slug,
    read_key_hash: null,
    write_key_hash: null,
    generation: 0,
    created_at: now,
    modified_at: now,
  };
}

/** An import needs an empty Bucket; a Block, only that its type slugs be free. */
async function assertRoom(
  db: Db,
  bucket: BucketDoc,
  manifest: Manifest,
  types: ReadonlyMap<string, ObjectTypeDoc>,
  bundleSlugs: ReadonlySet<string>,
  block: boolean,
): Promise<void> {
  if (block) {
    const taken = [...bundleSlugs].filter((s) => types.has(s));
    if (taken.length > 0)
      throw new MigrationError(
        `Bucket "${bucket.slug}" already has Object type(s) ${taken.join(', ')}, which Block "${manifest.block?.slug ?? ''}" brings`,
      );
    return;
  }
  const filter = { bucket_id: bucket._id };
  const [typeCount, objects, media] = await Promise.all([
    objectTypesCollection(db).countDocuments(filter),
    objectsCollection(db).countDocuments(filter),
    mediaCollection(db).countDocuments(filter),
  ]);
  if (typeCount + objects + media > 0)
    throw new MigrationError(
      `Bucket "${bucket.slug}" is not empty (${typeCount} Object types, ${objects} Objects, ${media} media): import into a new or empty Bucket`,
    );
}
