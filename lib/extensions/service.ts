import { ObjectId, type Db } from 'mongodb';
import type { ExtensionSettings } from '../config.js';
import type { BucketDoc } from '../db/collections.js';
import { BadRequestError } from '../errors/http-errors.js';
import type { ExtensionEdit } from '../types/bodies.generated.js';
import { storeArchive } from './archive-store.js';
import { acceptArchive, assertFrameable, downloadArchive, iconAddress, parseAddress } from './checks.js';
import type { ExtensionDoc, ExtensionSource } from '../store/extensions.js';
import type { OutboundOptions } from './guarded-get.js';
import type { ZipEntry } from '../store/zip-check.js';
import { QueryParamTokens, type QueryParam } from './query-params.js';
import {
  countExtensions,
  insertExtension,
  MAX_EXTENSIONS_PER_BUCKET,
  updateExtension,
  type ExtensionChanges,
} from './store.js';

/** An uploaded archive as multer hands it over (the spec's `zip`: `originalname` and `buffer`). */
export interface UploadedZip {
  originalname: string;
  buffer: Buffer;
}

/** The optional fields every form takes. */
interface Decorations {
  title?: string | undefined;
  image_url?: string | null | undefined;
  font_awesome_class?: string | null | undefined;
}

const HTTPS = ['https:'];
const HTTP_OR_HTTPS = ['http:', 'https:'];

/** "reports.zip" → "reports"; the last path segment of a URL likewise. */
function titleFromName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  return (
    decodeURIComponentSafe(base)
      .replace(/\.zip$/i, '')
      .slice(0, 200) || 'Extension'
  );
}

/** The decorations as stored, refusing (400) an image_url that is not an http(s) address. */
function checkedDecorations(extra: Decorations): Decorations {
  return extra.image_url === undefined ? extra : { ...extra, image_url: iconAddress(extra.image_url) };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Installs, edits and serves a Bucket's Extensions; one per mount (v1, v2), each reading the shared secret once. */
export class ExtensionService {
  readonly tokens: QueryParamTokens;

  constructor(
    private readonly db: Db,
    private readonly settings: ExtensionSettings,
    private readonly outbound: Omit<OutboundOptions, 'maxBytes' | 'timeoutMs'>,
  ) {
    this.tokens = new QueryParamTokens(db);
  }

  private get fetchOptions(): OutboundOptions {
    return { ...this.outbound, maxBytes: this.settings.zipMaxBytes, timeoutMs: this.settings.fetchTimeoutMs };
  }

  private get limits() {
    const { zipMaxBytes, zipMaxEntries, zipMaxUnpackedBytes } = this.settings;
    return { maxBytes: zipMaxBytes, maxEntries: zipMaxEntries, maxUnpackedBytes: zipMaxUnpackedBytes };
  }

  async installZip(bucket: BucketDoc, actor: string, zip: UploadedZip, given: Decorations): Promise<ExtensionDoc> {
    const extra = checkedDecorations(given);
    const entries = await acceptArchive(zip.buffer, this.limits, `"${zip.originalname}"`);
    await this.assertRoom(bucket);
    const archive = await this.keepArchive(bucket, zip.originalname, zip.buffer, entries);
    const title = extra.title ?? titleFromName(zip.originalname);
    return this.insert(bucket, actor, 'zip', { ...extra, title, url: null, zip_url: null, archive });
  }

  async installFromZipUrl(bucket: BucketDoc, actor: string, zipUrl: string, given: Decorations): Promise<ExtensionDoc> {
    const extra = checkedDecorations(given);
    const url = parseAddress('zip_url', zipUrl, HTTP_OR_HTTPS);
    await this.assertRoom(bucket);
    const { bytes, entries } = await downloadArchive(url, this.fetchOptions, this.limits);
    const name = url.pathname.split('/').pop() || 'extension.zip';
    const archive = await this.keepArchive(bucket, name, bytes, entries);
    const title = extra.title ?? titleFromName(url.pathname);
    return this.insert(bucket, actor, 'zip_url', { ...extra, title, url: null, zip_url: url.href, archive });
  }

  async installFromUrl(bucket: BucketDoc, actor: string, title: string, pageUrl: string, given: Decorations) {
    const extra = checkedDecorations(given);
    const url = parseAddress('url', pageUrl, HTTPS);
    await this.assertRoom(bucket);
    await assertFrameable(url, this.fetchOptions);
    return this.insert(bucket, actor, 'url', { ...extra, title, url: url.href, zip_url: null, archive: null });
  }

  /** Applies an edit: a new url is checked like an install's; query_params are signed and replace the old. */
  async edit(bucket: BucketDoc, doc: ExtensionDoc, body: ExtensionEdit): Promise<ExtensionDoc> {
    const changes: ExtensionChanges = {};
    if (body.title !== undefined) changes.title = body.title;
    if (body.image_url !== undefined) changes.image_url = iconAddress(body.image_url);
    if (body.font_awesome_class !== undefined) changes.font_awesome_class = body.font_awesome_class;
    if (body.url !== undefined) {
      const url = parseAddress('url', body.url, HTTPS);
      if (url.href !== doc.url) await assertFrameable(url, this.fetchOptions);
      changes.url = url.href;
    }
    if (body.query_params !== undefined) {
      // Every API route reads `pretty`, the archive's files route included, so it cannot be the extension's.
      if (body.query_params.some((p) => p.key === 'pretty')) {
        throw new BadRequestError(
          'Invalid body: query_params may not use the key "pretty", which the API reserves',
          'invalid_body',
        );
      }
      changes.query_params = await this.tokens.sign(doc._id, body.query_params);
    }
    return updateExtension(this.db, bucket, doc._id, changes);
  }

  /** The parameters served with the extension: none when any stored token fails its check. */
  async servedParams(doc: ExtensionDoc): Promise<QueryParam[]> {
    return (await this.tokens.decode(doc._id, doc.query_params)) ?? [];
  }

  /** Stores an accepted archive in GridFS; what the Extension records of it. */
  private async keepArchive(bucket: BucketDoc, name: string, bytes: Buffer, files: ZipEntry[]) {
    const fileId = await storeArchive(this.db, bucket._id, name, bytes);
    return { file_id: fileId, name, bytes: bytes.length, files };
  }

  private async assertRoom(bucket: BucketDoc): Promise<void> {
    if ((await countExtensions(this.db, bucket)) >= MAX_EXTENSIONS_PER_BUCKET) {
      throw new BadRequestError(
        `The bucket '${bucket.slug}' already has ${MAX_EXTENSIONS_PER_BUCKET} Extensions, the most it may have: delete one first`,
      );
    }
  }

  private async insert(
    bucket: BucketDoc,
    actor: string,
    source: ExtensionSource,
    fields: Omit<Decorations, 'title'> & Pick<ExtensionDoc, 'title' | 'url' | 'zip_url' | 'archive'>,
  ): Promise<ExtensionDoc> {
    const now = new Date();
    const doc: ExtensionDoc = {
      _id: new ObjectId(),
      bucket_id: bucket._id,
      source,
      title: fields.title,
      url: fields.url,
      zip_url: fields.zip_url,
      image_url: fields.image_url ?? null,
      font_awesome_class: fields.font_awesome_class ?? null,
      archive: fields.archive,
      query_params: [],
      installed_at: now,
      modified_at: now,
      created_by: actor,
    };
    await insertExtension(this.db, doc);
    return doc;
  }
}
