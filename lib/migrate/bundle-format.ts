import type { Metafield } from '../types/metafield.js';
/*
 * The bundle: one tar file (gzip optional) holding a Bucket's content. Entries, in this order:
 *   manifest.json          format, version, source, counts
 *   object-types.ndjson    one Object type per line (the body POST /object-types takes)
 *   media.ndjson           one media item's metadata per line
 *   objects.ndjson         one Object per line: its latest version and, when that is a draft, its live one
 *   revisions.ndjson       (export --revisions) each Object's history, in the order of objects.ndjson, oldest first
 *   webhooks.ndjson        webhook settings without the signing secret or header values
 *   media/<name>           the media files, in the order of media.ndjson
 * Every section is present (possibly empty), so a reader knows the layout from the format version.
 */

export const BUNDLE_FORMAT = 'bucket-bundle';
export const BUNDLE_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';
export const MEDIA_PREFIX = 'media/';

export const SECTIONS = ['object-types', 'media', 'objects', 'revisions', 'webhooks'] as const;
export type Section = (typeof SECTIONS)[number];

export function sectionEntry(section: Section): string {
  return `${section}.ndjson`;
}

export function mediaEntry(name: string): string {
  return `${MEDIA_PREFIX}${name}`;
}

export type Counts = Record<Section, number> & { media_bytes: number };

/** Where the content came from: imports of the same source into the same Bucket continue each other. */
export interface BundleSource {
  kind: 'export' | 'pull' | 'block';
  /** Stable per source (a Bucket's id, a base URL and slug, a Block's slug). */
  id: string;
  bucket?: string;
  url?: string;
}

export interface BlockInfo {
  slug: string;
  title: string;
  description?: string;
}

export interface Manifest {
  format: typeof BUNDLE_FORMAT;
  version: number;
  bundle_id: string;
  created_at: string;
  source: BundleSource;
  block?: BlockInfo;
  revisions: boolean;
  counts: Counts;
}

/** One version of an Object: the fields POST /objects takes, plus the times and author it had. */
export interface VersionRecord {
  title: string;
  slug?: string;
  status?: 'published' | 'draft';
  content?: string;
  locale?: string | null;
  /** A media name of the bundle. */
  thumbnail?: string | null;
  order?: number;
  /** Relationship ids are ids of the bundle's Objects, file values names of its media. */
  metadata?: Record<string, unknown>;
  modified_at?: string;
  published_at?: string | null;
  modified_by?: string | null;
}

export interface ObjectRecord {
  /** The Object's id in its source; the import gives it a new one. */
  id: string;
  type: string;
  created_at?: string;
  created_by?: string | null;
  publish_at?: string | null;
  unpublish_at?: string | null;
  latest: VersionRecord;
  /** The live version when it differs from the latest (a draft over a published Object); null: none. */
  live?: VersionRecord | null;
  /** The Object's own Metafields (definitions beside its type's), which its versions' metadata uses. */
  metafields?: Metafield[];
}

export type RevisionReason = 'create' | 'edit' | 'draft' | 'publish' | 'scheduled-publish' | 'scheduled-unpublish';

export interface RevisionRecord {
  id: string;
  /** The source id of its Object. */
  object: string;
  created_at: string;
  reason: RevisionReason;
  status: 'published' | 'draft';
  title: string;
  slug?: string;
  content?: string;
  metadata?: Record<string, unknown>;
}

export interface MediaRecord {
  id?: string;
  name: string;
  original_name: string;
  type: string;
  size: number;
  folder?: string | null;
  alt_text?: string;
  metadata?: Record<string, unknown>;
  width?: number | null;
  height?: number | null;
  created_at?: string;
  modified_at?: string;
}

export interface WebhookRecord {
  id?: string;
  title?: string;
  endpoint: string;
  events: string[];
  object_types?: string[] | null;
  props?: string | null;
  payload?: boolean;
  enabled?: boolean;
  /** Names only: header values (tokens) are secrets and stay behind. */
  header_names?: string[];
}

/** An Object type record is the body POST /object-types takes, with its slug always given. */
export type TypeRecord = Record<string, unknown> & { slug: string; title: string };
