import { findMediaByName, createMedia } from '../media/media.js';
import { removeOriginal } from '../store/files.js';
import { storeStream } from '../media/store-stream.js';
import { MigrationError } from '../errors/domain-errors.js';
import type { Metafield } from '../types/metafield.js';
import { writeImportedObject } from '../objects/object-import.js';
import { createObjectType, updateObjectType } from '../object-types/object-types.js';
import { findObjectType, listObjectTypes } from '../store/type-reads.js';
import { referencedTypes, withoutReferences } from '../metafields/type-references.js';
import { createWebhook, listWebhooks } from '../webhooks/manage.js';
import type { TypeRecord } from './bundle-format.js';
import { objectsWithHistory } from './history.js';
import { mediaFields, planOf, webhookBody } from './import-check.js';
import { atRecord, warn, type ImportRun } from './import-run.js';
import { checkRecord } from './record-schemas.js';

/** What one run wrote; what an earlier run of the same import had written is skipped. */
export interface WrittenCounts {
  types: number;
  media: number;
  objects: number;
  versions: number;
  webhooks: number;
}

/**
 * The second pass, after checkBundle found every record good: types, media, Objects with their
 * histories, webhooks, each through the service the API uses for it. Each step first looks for
 * what an interrupted earlier run wrote (by slug, by derived name or id, by last revision), so a
 * rerun continues where the last one stopped.
 */
export async function writeBundle(run: ImportRun): Promise<WrittenCounts> {
  const types = await writeTypes(run);
  const media = await writeMedia(run);
  const { objects, versions } = await writeObjects(run);
  const webhooks = await writeWebhooks(run);
  return { types, media, objects, versions, webhooks };
}

function metafieldsOf(record: TypeRecord): Metafield[] {
  // Checked against schemas/ObjectTypeCreate.json by checkBundle before anything is written.
  return Array.isArray(record.metafields) ? (record.metafields as Metafield[]) : [];
}

/**
 * Types whose relationships name only types already there come first. A cycle (posts → authors
 * → posts) is broken by creating one of its types without the relationships to types not yet
 * there; once all exist, every type whose Metafields are not yet the bundle's gets them whole.
 */
async function writeTypes(run: ImportRun): Promise<number> {
  const { deps, bucket } = run;
  const there = new Set((await listObjectTypes(deps.db, bucket)).map((t) => t.slug));
  const pending = run.index.types.filter((t) => !there.has(t.record.slug));
  run.progress.phase('types', run.index.types.length);
  run.progress.tick(run.index.types.length - pending.length);
  const ready = (slug: string, own: string) => slug === own || there.has(slug);
  let created = 0;
  while (pending.length > 0) {
    const next = pending.findIndex((t) =>
      [...referencedTypes(metafieldsOf(t.record))].every((s) => ready(s, t.record.slug)),
    );
    const [type] = pending.splice(Math.max(next, 0), 1);
    if (!type) break;
    const { record, where } = type;
    const body =
      next === -1
        ? { ...record, metafields: withoutReferences(metafieldsOf(record), (s) => ready(s, record.slug)) }
        : record;
    await atRecord(where, () => createObjectType(deps, bucket, body));
    there.add(record.slug);
    created++;
    run.progress.tick();
  }
  for (const { record, where } of run.index.types) {
    const doc = await findObjectType(deps.db, bucket, record.slug);
    const metafields = metafieldsOf(record);
    if (doc && JSON.stringify(doc.metafields) !== JSON.stringify(metafields)) {
      await atRecord(where, () => updateObjectType(deps, bucket, record.slug, { metafields }));
    }
  }
  return created;
}

/** Media files in the order of media.ndjson, each stored and recorded as an upload is. */
async function writeMedia(run: ImportRun): Promise<number> {
  const { deps, bucket } = run;
  const files = run.reader.mediaFiles();
  run.progress.phase('media', run.index.media.size);
  let written = 0;
  try {
    for (const { record, where, name } of run.index.media.values()) {
      const file = await files.next();
      if (file.done || file.value.name !== record.name) {
        const found = file.done ? 'no more files' : `media/${file.value.name}`;
        throw new MigrationError(`${where}: expected the file media/${record.name} next in the bundle, found ${found}`);
      }
      if (!(await findMediaByName(deps.db, bucket, name))) {
        await atRecord(where, async () => {
          const stored = await storeStream(deps.db, file.value.stream, {
            bucketId: bucket._id,
            originalName: record.original_name,
            claimedType: record.type,
            maxBytes: run.mediaMaxBytes,
            discard: (fileId) => {
              void removeOriginal(deps.db, fileId).catch(() => undefined);
            },
          });
          try {
            if (stored.size !== record.size)
              throw new MigrationError(`${where}: the file has ${stored.size} bytes, its record says ${record.size}`);
            const created = record.created_at ? new Date(record.created_at) : new Date();
            const times = {
              created_at: created,
              modified_at: record.modified_at ? new Date(record.modified_at) : created,
            };
            await createMedia(deps, bucket, { ...stored, name }, mediaFields(record), times);
          } catch (err) {
            await removeOriginal(deps.db, stored.file_id);
            throw err;
          }
        });
        written++;
      }
      run.progress.tick();
    }
  } finally {
    await files.return(undefined);
  }
  return written;
}

async function writeObjects(run: ImportRun): Promise<{ objects: number; versions: number }> {
  const { deps, bucket, planned } = run;
  const types = new Map((await listObjectTypes(deps.db, bucket)).map((t) => [t.slug, t]));
  run.progress.phase('objects', run.index.objects.size);
  let objects = 0;
  let versions = 0;
  const onSkipped = (m: string) => {
    warn(run, m);
  };
  for await (const item of objectsWithHistory(run.reader, run.index, onSkipped)) {
    const type = types.get(item.record.type);
    if (!type) throw new MigrationError(`${item.where}: Object type "${item.record.type}" is missing from the Bucket`);
    const plan = planOf(run, item, type);
    const written = await atRecord(item.where, () =>
      writeImportedObject({ deps, bucket, type, planned, typeSlugs: new Set(types.keys()) }, plan, 'object'),
    );
    if (written > 0) objects++;
    versions += written;
    run.progress.tick();
  }
  return { objects, versions };
}

/** Webhooks come in disabled (webhookBody); one with the same title and endpoint is already there. */
async function writeWebhooks(run: ImportRun): Promise<number> {
  const { deps, bucket } = run;
  const there = new Set((await listWebhooks(deps.db, bucket)).map((w) => `${w.title}\u0000${w.endpoint}`));
  let written = 0;
  for await (const { value, where } of run.reader.records('webhooks')) {
    const body = webhookBody(checkRecord('webhook', value, where));
    const title = body.title ?? new URL(body.endpoint).host;
    if (there.has(`${title}\u0000${body.endpoint}`)) continue;
    await atRecord(where, () => createWebhook(deps.db, bucket, body));
    written++;
  }
  return written;
}
