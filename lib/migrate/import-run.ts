import type { BucketDoc, ObjectTypeDoc } from '../db/collections.js';
import { DomainError, MigrationError } from '../errors/domain-errors.js';
import { HttpError } from '../errors/http-errors.js';
import type { ObjectWriteDeps } from '../objects/write/object-writes.js';
import type { PlannedContent } from '../objects/write/planned-content.js';
import type { BundleReader } from './bundle-reader.js';
import type { BundleIndex } from './import-index.js';
import type { Progress } from './progress.js';

/** Everything one import's passes share. */
export interface ImportRun {
  deps: ObjectWriteDeps;
  reader: BundleReader;
  index: BundleIndex;
  /** The target (not yet created in a dry run into a new Bucket: then a stand-in). */
  bucket: BucketDoc;
  planned: PlannedContent;
  progress: Progress;
  /** Messages about what was left out (references naming nothing in the bundle), each once. */
  warnings: Set<string>;
  /** Object types the Bucket has that the bundle does not bring (a Block's neighbours). */
  otherTypes: ReadonlyMap<string, ObjectTypeDoc>;
  /** The largest media file stored, as for uploads (MEDIA_MAX_BYTES). */
  mediaMaxBytes: number;
}

export function warn(run: ImportRun, message: string): void {
  if (run.warnings.has(message)) return;
  run.warnings.add(message);
  run.progress.note(`warning: ${message}`);
}

/** What the import's content will be once written: the bundle's Objects and media. */
export function plannedContent(index: BundleIndex): PlannedContent {
  return {
    objects: new Map([...index.objects.values()].map((o) => [o.hex, o.type])),
    media: new Map([...index.media.values()].map((m) => [m.name, m.record.type])),
  };
}

/** A refusal the services throw (the API's 400s, domain errors) as one error naming the record. */
function located(where: string, err: unknown): unknown {
  if (err instanceof MigrationError) return err;
  if (err instanceof HttpError || err instanceof DomainError) return new MigrationError(`${where}: ${err.message}`);
  return err;
}

/**
 * Runs `step`, naming the record in what it refuses:
 * `objects.ndjson line 12 (latest version): Invalid metadata: ...`.
 */
export async function atRecord<T>(where: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw located(where, err);
  }
}

export function atRecordSync<T>(where: string, step: () => T): T {
  try {
    return step();
  } catch (err) {
    throw located(where, err);
  }
}
