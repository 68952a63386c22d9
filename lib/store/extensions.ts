import type { Collection, Db, ObjectId } from 'mongodb';
import type { ZipEntry } from './zip-check.js';

/** The GridFS bucket holding accepted extension archives; each file's metadata names its Bucket. */
export const EXTENSION_ARCHIVES_BUCKET = 'extension_archives';

/** How an extension was installed: the three forms of POST .../extensions. */
export type ExtensionSource = 'zip' | 'zip_url' | 'url';

/** A stored archive: the GridFS file and its checked entries, so one file is read by its byte range. */
export interface ExtensionArchive {
  file_id: ObjectId;
  name: string;
  bytes: number;
  files: ZipEntry[];
}

export interface ExtensionDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  source: ExtensionSource;
  title: string;
  /** The framed page (url form); null for archives. */
  url: string | null;
  /** Where the archive came from (zip_url form); null for the other forms. */
  zip_url: string | null;
  image_url: string | null;
  font_awesome_class: string | null;
  archive: ExtensionArchive | null;
  /** Each query parameter as a signed token (lib/extensions/query-params.ts), decoded only when served. */
  query_params: string[];
  installed_at: Date;
  modified_at: Date;
  /** The account that installed it. */
  created_by: string | null;
}

export function extensionsCollection(db: Db): Collection<ExtensionDoc> {
  return db.collection<ExtensionDoc>('extensions');
}

export async function ensureExtensionIndexes(db: Db): Promise<void> {
  await extensionsCollection(db).createIndex(
    { bucket_id: 1, installed_at: 1, _id: 1 },
    { name: 'bucket_installed' },
    undefined,
  );
  await db
    .collection(`${EXTENSION_ARCHIVES_BUCKET}.files`)
    .createIndex({ 'metadata.bucket_id': 1 }, { name: 'bucket' }, undefined);
}
