import type { ObjectDoc, ObjectTypeDoc, RevisionDoc } from '../db/collections.js';
import type { MediaDoc } from '../store/media.js';
import type { Metafield } from '../types/metafield.js';
import type { WebhookDoc } from '../store/webhooks.js';
import type {
  MediaRecord,
  ObjectRecord,
  RevisionRecord,
  TypeRecord,
  VersionRecord,
  WebhookRecord,
} from './bundle-format.js';
import { storedToWriteForm } from './metadata-forms.js';
import { effectiveMetafields } from '../metafields/own.js';

/* Stored documents → bundle records (bundle-format.ts): what export writes. */

/** The body POST /object-types takes to make the same type (ids and times are the target's own). */
export function typeRecord(t: ObjectTypeDoc): TypeRecord {
  return {
    slug: t.slug,
    title: t.title,
    singular: t.singular,
    emoji: t.emoji,
    singleton: t.singleton,
    metafields: t.metafields,
    options: t.options,
    localization: t.localization,
    locales: t.locales,
    priority_locale: t.priority_locale,
    preview_link: t.preview_link,
    extensions: t.extensions,
    order: t.order,
  };
}

export function mediaRecord(m: MediaDoc): MediaRecord {
  return {
    id: m._id.toHexString(),
    name: m.name,
    original_name: m.original_name,
    type: m.type,
    size: m.size,
    folder: m.folder,
    alt_text: m.alt_text,
    metadata: m.metadata,
    width: m.width,
    height: m.height,
    created_at: m.created_at.toISOString(),
    modified_at: m.modified_at.toISOString(),
  };
}

function versionRecord(doc: ObjectDoc, metafields: Metafield[]): VersionRecord {
  return {
    title: doc.title,
    slug: doc.slug,
    status: doc.status,
    content: doc.content,
    locale: doc.locale,
    thumbnail: doc.thumbnail,
    order: doc.order,
    metadata: storedToWriteForm(metafields, doc.metadata),
    modified_at: doc.modified_at.toISOString(),
    published_at: doc.published_at?.toISOString() ?? null,
    modified_by: doc.modified_by,
  };
}

/**
 * An Object with its latest version and, when that is a draft, its live version (null when it
 * has none). A published latest version is the live one, so it is not repeated.
 */
export function objectRecord(latest: ObjectDoc, live: ObjectDoc | null, type: ObjectTypeDoc | undefined): ObjectRecord {
  const metafields = effectiveMetafields(type?.metafields ?? [], latest.own_metafields);
  return {
    id: latest._id.toHexString(),
    type: latest.type,
    created_at: latest.created_at.toISOString(),
    created_by: latest.created_by,
    publish_at: latest.publish_at?.toISOString() ?? null,
    unpublish_at: latest.unpublish_at?.toISOString() ?? null,
    latest: versionRecord(latest, metafields),
    ...(latest.status === 'draft' && { live: live ? versionRecord(live, metafields) : null }),
    ...(latest.own_metafields && { metafields: latest.own_metafields }),
  };
}

export function revisionRecord(rev: RevisionDoc, type: ObjectTypeDoc | undefined): RevisionRecord {
  return {
    id: rev._id.toHexString(),
    object: rev.object_id.toHexString(),
    created_at: rev.created_at.toISOString(),
    reason: rev.reason,
    status: rev.status,
    title: rev.title,
    slug: rev.slug,
    content: rev.content,
    metadata: storedToWriteForm(effectiveMetafields(type?.metafields ?? [], rev.own_metafields), rev.metadata),
  };
}

/** Settings only: the signing secret and header values (tokens) are secrets and stay behind. */
export function webhookRecord(w: WebhookDoc): WebhookRecord {
  return {
    id: w._id.toHexString(),
    title: w.title,
    endpoint: w.endpoint,
    events: w.events,
    object_types: w.object_types,
    props: w.props,
    payload: w.payload,
    enabled: w.enabled,
    header_names: w.headers.map((h) => h.name),
  };
}
