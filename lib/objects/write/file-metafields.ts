import type { Db } from 'mongodb';
import type { BucketDoc } from '../../db/collections.js';
import { mediaCollection } from '../../store/media.js';
import type { Metafield } from '../../types/metafield.js';
import { kindOf } from '../../metafields/kinds.js';
import { walkMetafields } from '../../metafields/walk.js';
import { NOTHING_PLANNED, type PlannedContent } from './planned-content.js';
import { readOptions } from '../../db/service-db.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { quote } from '../../util/quote.js';

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
