import { MigrationError } from '../errors/domain-errors.js';
import { cleanOriginalName } from '../media/media-name.js';
import type { MediaRecord, Section, TypeRecord } from './bundle-format.js';
import type { BundleReader } from './bundle-reader.js';
import { plannedMediaName, plannedObjectId } from './id-plan.js';
import type { Remap } from './metadata-forms.js';
import type { Progress } from './progress.js';
import { checkRecord } from './record-schemas.js';

export interface PlannedObject {
  /** The id it gets in the target. */
  hex: string;
  type: string;
  line: number;
}

export interface PlannedMedia {
  record: MediaRecord;
  where: string;
  /** The name it gets in the target. */
  name: string;
}

/**
 * What a bundle holds, read once before anything is checked or written: its types, and where
 * each Object id and media name of the source goes in the target. Objects are held as ids only,
 * so the index stays small beside the content it stands for.
 */
export interface BundleIndex {
  types: { record: TypeRecord; where: string }[];
  media: Map<string, PlannedMedia>;
  objects: Map<string, PlannedObject>;
  remap: Remap;
}

export async function indexBundle(reader: BundleReader, key: string, progress: Progress): Promise<BundleIndex> {
  const { manifest } = reader;
  const types: BundleIndex['types'] = [];
  const slugs = new Map<string, string>();
  progress.phase('reading', manifest.counts['object-types'] + manifest.counts.media + manifest.counts.objects);
  for await (const { value, where } of reader.records('object-types')) {
    const record = checkRecord('type', value, where);
    const before = slugs.get(record.slug);
    if (before) throw new MigrationError(`${where}: Object type "${record.slug}" is also at ${before}`);
    slugs.set(record.slug, where);
    types.push({ record, where });
    progress.tick();
  }
  checkCount(reader, 'object-types', types.length);

  const media = new Map<string, PlannedMedia>();
  for await (const { value, where } of reader.records('media')) {
    const record = checkRecord('media', value, where);
    const before = media.get(record.name);
    if (before) throw new MigrationError(`${where}: media "${record.name}" is also at ${before.where}`);
    const name = plannedMediaName(key, record.name, cleanOriginalName(record.original_name), record.type);
    media.set(record.name, { record, where, name });
    progress.tick();
  }
  checkCount(reader, 'media', media.size);

  const objects = new Map<string, PlannedObject>();
  const fallbackTime = new Date(manifest.created_at);
  for await (const { value, where, line } of reader.records('objects')) {
    const record = checkRecord('object', value, where);
    const before = objects.get(record.id);
    if (before) throw new MigrationError(`${where}: Object id "${record.id}" is also on line ${before.line}`);
    if (!slugs.has(record.type))
      throw new MigrationError(`${where}: Object "${record.id}" is of type "${record.type}", which the bundle lacks`);
    const created = record.created_at ? new Date(record.created_at) : fallbackTime;
    objects.set(record.id, { hex: plannedObjectId(key, record.id, created).toHexString(), type: record.type, line });
    progress.tick();
  }
  checkCount(reader, 'objects', objects.size);
  return {
    types,
    media,
    objects,
    remap: { object: (id) => objects.get(id)?.hex, media: (name) => media.get(name)?.name },
  };
}

/** A section that holds fewer records than the manifest says was cut short (a truncated copy). */
function checkCount(reader: BundleReader, section: Section, found: number): void {
  const expected = reader.manifest.counts[section];
  if (found !== expected) {
    throw new MigrationError(
      `${reader.file} is damaged: ${section}.ndjson holds ${found} records, its manifest says ${expected}`,
    );
  }
}
