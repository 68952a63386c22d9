import { ObjectId, type Db } from 'mongodb';
import { objectsCollection, type BucketDoc, type ObjectTypeDoc } from '../../db/collections.js';
import { ValidationErrors, BadRequestError } from '../../errors/http-errors.js';
import { defaultMetadata, relationshipRefs, toStoredMetadata } from '../../metafields/stored-values.js';
import { missingRequired } from '../../metafields/metadata-problems.js';
import type { MetadataValidators } from '../../metafields/metadata-schema.js';
import { invalidFileValues } from './file-metafields.js';
import { NOTHING_PLANNED, type PlannedContent } from './planned-content.js';
import { readOptions } from '../../db/service-db.js';

/**
 * Checks metadata sent on an Object write against its type and returns the Object's whole
 * stored metadata after it: the sent keys, at every depth of parents, written onto `current`
 * (null on create, where the defaults stand in). Shape problems, required values the result
 * lacks, dangling relationships and unknown media names are reported together in one 400.
 * `planned` (an import) names Objects and media that count as present though not written yet.
 */
export async function prepareMetadata(
  db: Db,
  validators: MetadataValidators,
  bucket: BucketDoc,
  type: ObjectTypeDoc,
  input: Record<string, unknown> | undefined,
  current: Record<string, unknown> | null,
  planned: PlannedContent = NOTHING_PLANNED,
): Promise<Record<string, unknown>> {
  const metadata = input ?? {};
  const problems = validators.for(type, current === null ? 'create' : 'patch')(metadata);
  let stored: Record<string, unknown> = {};
  if (problems.length === 0) {
    stored = toStoredMetadata(type.metafields, metadata, current ?? defaultMetadata(type.metafields));
    problems.push(...missingRequired(type.metafields, stored));
    // Relationship ids and file names are each checked in one query; both run at once.
    const [relationships, files] = await Promise.all([
      danglingRelationships(db, bucket, type, metadata, planned),
      invalidFileValues(db, bucket, type.metafields, metadata, planned),
    ]);
    problems.push(...relationships, ...files);
  }
  const errors = new ValidationErrors();
  for (const problem of problems) errors.add(problem);
  errors.throwIfAny('Invalid metadata', 'metafield_invalid');
  return stored;
}

/**
 * One query for every referenced id: each must be an Object of this Bucket (of the right type).
 * Ids an import has planned are known without asking.
 */
async function danglingRelationships(
  db: Db,
  bucket: BucketDoc,
  type: ObjectTypeDoc,
  metadata: Record<string, unknown>,
  planned: PlannedContent,
): Promise<string[]> {
  const refs = relationshipRefs(type.metafields, metadata);
  if (refs.length === 0) return [];
  const ids = [...new Set(refs.map((r) => r.id))]
    .filter((id) => !planned.objects.has(id))
    .map((id) => new ObjectId(id));
  const found =
    ids.length === 0
      ? []
      : await objectsCollection(db)
          .find({ bucket_id: bucket._id, _id: { $in: ids } }, { projection: { type: 1 }, ...readOptions(db) })
          .toArray();
  const typeById = new Map(found.map((d) => [d._id.toHexString(), d.type]));
  const problems: string[] = [];
  for (const ref of refs) {
    const actual = planned.objects.get(ref.id) ?? typeById.get(ref.id);
    if (actual === undefined) {
      problems.push(
        `invalid value for key "${ref.path}" of type "${ref.metafieldType}": no Object with id '${ref.id}' in bucket '${bucket.slug}'`,
      );
    } else if (ref.objectType && actual !== ref.objectType) {
      problems.push(
        `invalid value for key "${ref.path}" of type "${ref.metafieldType}": Object '${ref.id}' is of type "${actual}", expected "${ref.objectType}"`,
      );
    }
  }
  return problems;
}

/**
 * `publish_at` / `unpublish_at` as sent: an ISO 8601 string or UNIX milliseconds (the legacy
 * form), which must lie in the future; null clears the schedule; undefined leaves it alone.
 */
export function parseScheduleTime(name: string, raw: unknown, now: Date): Date | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw === '') return null;
  const at =
    typeof raw === 'number'
      ? new Date(raw)
      : typeof raw === 'string' && /^\d{4}-\d\d-\d\d/.test(raw)
        ? new Date(raw)
        : null;
  if (!at || Number.isNaN(at.getTime()))
    throw new BadRequestError(
      `${name} must be an ISO 8601 date-time or UNIX milliseconds, got ${JSON.stringify(raw)}`,
      'invalid_body',
    );
  if (at.getTime() <= now.getTime())
    throw new BadRequestError(`${name} must be in the future, got ${at.toISOString()}`, 'invalid_body');
  return at;
}
