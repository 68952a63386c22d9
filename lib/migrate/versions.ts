import { ObjectId } from 'mongodb';
import type { Metafield } from '../types/metafield.js';
import type { ImportedObject, ImportVersion, VersionBody } from '../objects/object-import.js';
import type { RevisionReason, VersionRecord } from './bundle-format.js';
import type { ObjectWithHistory } from './history.js';
import { remapWriteForm, type DroppedRef, type Remap } from './metadata-forms.js';

/** A version to write, with where it came from for messages. */
export interface PlannedVersion extends ImportVersion {
  where: string;
}

export interface ObjectPlan extends ImportedObject {
  versions: PlannedVersion[];
}

interface Candidate {
  at: Date;
  reason: RevisionReason;
  where: string;
  version: VersionRecord;
  /** From revisions.ndjson: the live or latest version of the same time is written in its place. */
  revision: boolean;
}

const time = (text: string | null | undefined, fallback: Date): Date => (text ? new Date(text) : fallback);

/**
 * The versions that rebuild an Object: its history (revisions.ndjson) oldest first, with the live
 * and latest versions written whole where the history reaches them (or added where it does not,
 * as when the bundle carries no history). Ids and media names are moved to the target's; the
 * last version takes the live one down when the Object has none left. Times strictly increase,
 * so a rerun can tell by the last revision written which versions are done.
 */
export function planObject(
  item: ObjectWithHistory,
  id: string,
  metafields: Metafield[],
  remap: Remap,
  fallbackTime: Date,
  dropped: (where: string, ref: DroppedRef) => void,
): ObjectPlan {
  const { record } = item;
  const latest = record.latest;
  const created = time(record.created_at, fallbackTime);
  const latestAt = time(latest.modified_at, created);
  const live = latest.status === 'draft' ? (record.live ?? null) : null;
  const candidates: Candidate[] = item.revisions.map(({ record: r, where }) => ({
    at: new Date(r.created_at),
    reason: r.reason,
    where,
    revision: true,
    version: {
      ...latest,
      title: r.title,
      status: r.status,
      metadata: r.metadata ?? {},
      published_at: r.status === 'published' ? r.created_at : null,
      ...pick(r),
    },
  }));
  const place = (at: Date, version: VersionRecord, where: string, reason: RevisionReason) => {
    const same = candidates.find((c) => c.revision && c.at.getTime() === at.getTime());
    if (same) Object.assign(same, { version, where, revision: false });
    else candidates.push({ at, reason, where, version, revision: false });
  };
  if (live) place(time(live.modified_at, latestAt), live, `${item.where} (live version)`, 'publish');
  place(latestAt, latest, `${item.where} (latest version)`, 'edit');
  candidates.sort((a, b) => a.at.getTime() - b.at.getTime());
  const versions: PlannedVersion[] = [];
  for (const [i, c] of candidates.entries()) {
    const previous = versions[i - 1];
    const at = previous && c.at.getTime() <= previous.at.getTime() ? new Date(previous.at.getTime() + 1) : c.at;
    versions.push({
      at,
      reason: i === 0 ? 'create' : c.reason,
      withdraw: c.reason === 'scheduled-unpublish',
      body: versionBody(c.version, metafields, remap, (ref) => {
        dropped(c.where, ref);
      }),
      published_at: c.version.published_at ? new Date(c.version.published_at) : null,
      modified_by: c.version.modified_by ?? null,
      where: c.where,
    });
  }
  const last = versions[versions.length - 1];
  // A history ending in a draft with no live version left: whatever an earlier version put live goes.
  if (last && latest.status === 'draft' && !live && versions.some((v) => v.body.status !== 'draft')) {
    last.withdraw = true;
  }
  return {
    id: new ObjectId(id),
    type: record.type,
    created_at: created,
    created_by: record.created_by ?? null,
    publish_at: record.publish_at ? new Date(record.publish_at) : null,
    unpublish_at: record.unpublish_at ? new Date(record.unpublish_at) : null,
    versions,
  };
}

/** The fields a revision has of its own (the others come from the latest version). */
function pick(r: { slug?: string | undefined; content?: string | undefined }): Partial<VersionRecord> {
  return { ...(r.slug !== undefined && { slug: r.slug }), ...(r.content !== undefined && { content: r.content }) };
}

function versionBody(
  v: VersionRecord,
  metafields: Metafield[],
  remap: Remap,
  dropped: (ref: DroppedRef) => void,
): VersionBody {
  let thumbnail = v.thumbnail;
  if (typeof thumbnail === 'string' && thumbnail !== '') {
    const to = remap.media(thumbnail);
    if (to === undefined) dropped({ path: 'thumbnail', what: 'media', value: thumbnail });
    thumbnail = to ?? null;
  }
  return {
    title: v.title,
    ...(v.slug !== undefined && { slug: v.slug }),
    ...(v.status !== undefined && { status: v.status }),
    ...(v.content !== undefined && { content: v.content }),
    ...(v.locale !== undefined && { locale: v.locale }),
    ...(thumbnail !== undefined && { thumbnail }),
    ...(v.order !== undefined && { order: v.order }),
    metadata: remapWriteForm(metafields, v.metadata ?? {}, remap, dropped),
  };
}
