import type { ObjectTypeDoc } from '../db/collections.js';
import { parseUploadFields, type UploadFields } from '../media/upload-fields.js';
import { checkImportVersion } from '../objects/object-import.js';
import { checkObjectTypeBody, newObjectTypeDoc } from '../object-types/object-types.js';
import type { WebhookCreate } from '../types/bodies.generated.js';
import { assertWebhookCreate } from '../webhooks/validate.js';
import type { MediaRecord, WebhookRecord } from './bundle-format.js';
import { objectsWithHistory, type ObjectWithHistory } from './history.js';
import { atRecord, atRecordSync, warn, type ImportRun } from './import-run.js';
import { checkRecord } from './record-schemas.js';
import { planObject, type ObjectPlan } from './versions.js';
import { effectiveMetafields } from '../metafields/own.js';

export interface CheckedCounts {
  types: number;
  media: number;
  objects: number;
  versions: number;
  webhooks: number;
}

/**
 * The first pass of every import, dry or not: every record is checked by the API's own rules
 * (Object type bodies, upload fields, each version of each Object with all its Metafield values,
 * webhook settings) before anything is written, so a bundle with a bad record stops here with
 * its position and leaves the Bucket as it was. Types are checked as the documents they will be,
 * so Objects are judged by the types the import makes.
 */
export async function checkBundle(run: ImportRun): Promise<CheckedCounts> {
  const { manifest } = run.reader;
  run.progress.phase('checking', manifest.counts.media + manifest.counts.objects + manifest.counts.revisions);
  const types = checkTypes(run);
  for (const { record, where } of run.index.media.values()) {
    atRecordSync(where, () => mediaFields(record));
    run.progress.tick();
  }
  let objects = 0;
  let versions = 0;
  for await (const item of objectsWithHistory(run.reader, run.index, (m) => {
    warn(run, m);
  })) {
    const type = types.get(item.record.type);
    if (!type) continue; // the index refused Objects of types the bundle lacks
    const plan = planOf(run, item, type);
    const ctx = { deps: run.deps, bucket: run.bucket, type, planned: run.planned, typeSlugs: new Set(types.keys()) };
    for (const [i, version] of plan.versions.entries()) {
      await atRecord(version.where, () => checkImportVersion(ctx, plan, i, 'object'));
    }
    objects++;
    versions += plan.versions.length;
    run.progress.tick(1 + item.revisions.length);
  }
  let webhooks = 0;
  for await (const { value, where } of run.reader.records('webhooks')) {
    atRecordSync(where, () => webhookBody(checkRecord('webhook', value, where)));
    webhooks++;
  }
  return { types: run.index.types.length, media: run.index.media.size, objects, versions, webhooks };
}

/** Each type body as POST /object-types judges it, among the bundle's and the Bucket's other types. */
function checkTypes(run: ImportRun): Map<string, ObjectTypeDoc> {
  const slugs = new Set([...run.otherTypes.keys(), ...run.index.types.map((t) => t.record.slug)]);
  const docs = new Map<string, ObjectTypeDoc>(run.otherTypes);
  const at = new Date(run.reader.manifest.created_at);
  run.index.types.forEach(({ record, where }, i) => {
    const others = new Set(slugs);
    others.delete(record.slug);
    const body = atRecordSync(where, () => checkObjectTypeBody(record, others, 'object_type'));
    docs.set(record.slug, newObjectTypeDoc(run.bucket._id, body, record.slug, i, at));
  });
  return docs;
}

/** The media record's folder, alt text and metadata, checked as the upload form's fields are. */
export function mediaFields(record: MediaRecord): UploadFields {
  return parseUploadFields({
    ...(typeof record.folder === 'string' && { folder: record.folder }),
    ...(record.alt_text !== undefined && { alt_text: record.alt_text }),
    metadata: record.metadata ?? {},
  });
}

/** A webhook comes in disabled: it has a new signing secret and none of its header values. */
export function webhookBody(record: WebhookRecord): WebhookCreate {
  const body: unknown = {
    ...(record.title !== undefined && { title: record.title }),
    endpoint: record.endpoint,
    events: record.events,
    ...(record.object_types !== undefined && { object_types: record.object_types }),
    ...(record.props !== undefined && { props: record.props }),
    ...(record.payload !== undefined && { payload: record.payload }),
    enabled: false,
  };
  assertWebhookCreate(body);
  return body;
}

/** The versions that rebuild one Object, by the Metafields of its type and its own. */
export function planOf(run: ImportRun, item: ObjectWithHistory, type: Pick<ObjectTypeDoc, 'metafields'>): ObjectPlan {
  const hex = run.index.objects.get(item.record.id)?.hex ?? '';
  const fallbackTime = new Date(run.reader.manifest.created_at);
  const own = item.record.metafields;
  const metafields = effectiveMetafields(type.metafields, own);
  const plan = planObject(item, hex, metafields, run.index.remap, fallbackTime, (where, ref) => {
    warn(run, `${where}: ${ref.path} names ${ref.what} "${ref.value}", which the bundle lacks; left out`);
  });
  return own ? { ...plan, own_metafields: own } : plan;
}
