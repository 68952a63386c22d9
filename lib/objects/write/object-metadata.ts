// The metadata an Object write sends, checked and made whole: its shape by the type, and every Object
// id and media name it (or its thumbnail) refers to, each kind looked up in one query.
import { ObjectId, type Db } from 'mongodb';
import { objectsCollection, type BucketDoc, type ObjectTypeDoc } from '../../db/collections.js';
import { ValidationErrors, BadRequestError } from '../../errors/http-errors.js';
import { mediaCollection } from '../../store/media.js';
import type { Metafield } from '../../types/metafield.js';
import { kindOf } from '../../metafields/kinds.js';
import { walkMetafields } from '../../metafields/walk.js';
import { quote } from '../../util/quote.js';
import { defaultMetadata, relationshipRefs, toStoredMetadata } from '../../metafields/stored-values.js';
import { missingRequired, type MetadataValidators } from '../../metafields/metadata-schema.js';
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

export interface FileRef {
  /** Dotted key path of the Metafield ("image", "seo.image", "slides.0.image"). */
  path: string;
  name: string;
  /** `media_validation_type`: the MIME top-level type the media must have ("image"). */
  mediaType: string | undefined;
}

/** Every non-empty file value in (validated) metadata input, at any nesting level. */
export function fileRefs(metafields: Metafield[], input: Record<string, unknown>): FileRef[] {
  const refs: FileRef[] = [];
  walkMetafields(metafields, input, {
    leaf: ({ mf, value, path }) => {
      const name = kindOf(mf).mediaName?.(value) ?? null;
      if (name !== null) refs.push({ path, name, mediaType: mf.media_validation_type });
    },
  });
  return refs;
}

/**
 * One query for every file value: each must name a media item of this Bucket, of the required
 * kind where the Metafield restricts it (`media_validation_type: "image"` → an image/* type).
 * Media an import has `planned` count as present, known without asking.
 */
export async function invalidFileValues(
  db: Db,
  bucket: BucketDoc,
  metafields: Metafield[],
  input: Record<string, unknown>,
  planned: PlannedContent = NOTHING_PLANNED,
): Promise<string[]> {
  const refs = fileRefs(metafields, input);
  if (refs.length === 0) return [];
  const names = [...new Set(refs.map((r) => r.name))].filter((name) => !planned.media.has(name));
  const found =
    names.length === 0
      ? []
      : await mediaCollection(db)
          .find(
            { bucket_id: bucket._id, name: { $in: names } },
            { projection: { name: 1, type: 1 }, ...readOptions(db) },
          )
          .toArray();
  const typeByName = new Map(found.map((m) => [m.name, m.type]));
  const problems: string[] = [];
  for (const ref of refs) {
    const type = planned.media.get(ref.name) ?? typeByName.get(ref.name);
    const at = `invalid value for key "${ref.path}" of type "file"`;
    if (type === undefined) problems.push(`${at}: no media named '${ref.name}' in bucket '${bucket.slug}'`);
    else if (ref.mediaType && !type.startsWith(`${ref.mediaType}/`)) {
      problems.push(
        `${at}: media '${ref.name}' is ${type}, expected ${ref.mediaType === 'image' ? 'an image' : `a ${ref.mediaType} file`}`,
      );
    }
  }
  return problems;
}

/**
 * `thumbnail` as sent → as stored: the name of a media item of this Bucket (checked, as file
 * Metafield values are), null for none. "" clears it like null; undefined leaves it alone.
 * Media an import has `planned` count as present.
 */
export async function storedThumbnail(
  db: Db,
  bucket: BucketDoc,
  sent: string | null | undefined,
  planned: PlannedContent = NOTHING_PLANNED,
): Promise<string | null | undefined> {
  if (sent === undefined) return undefined;
  if (sent === null || sent === '') return null;
  if (planned.media.has(sent)) return sent;
  const found = await mediaCollection(db).findOne(
    { bucket_id: bucket._id, name: sent },
    { projection: { _id: 1 }, ...readOptions(db) },
  );
  if (!found)
    throw new BadRequestError(`thumbnail: no media named ${quote(sent)} in bucket '${bucket.slug}'`, 'invalid_body');
  return sent;
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
