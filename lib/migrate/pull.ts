import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Metafield } from '../types/metafield.js';
import { mediaNameOfUrl } from '../metafields/kind-parts.js';
import type { ObjectWriteDeps } from '../objects/write/object-writes.js';
import { isPlainObject } from '../util/values.js';
import { BundleWriter } from './bundle-writer.js';
import { importBundle, type ImportSummary } from './import.js';
import { answerToWriteForm } from './metadata-forms.js';
import type { Progress } from './progress.js';
import { RemoteApi, type RemoteOptions } from './remote-api.js';

export interface PullOptions extends RemoteOptions {
  /** The local Bucket to copy into (new or empty). */
  into: string;
  dryRun: boolean;
  /** Keep the pulled bundle here (otherwise it is removed once imported). */
  keep?: string | undefined;
  pageSize: number;
  mediaMaxBytes: number;
  progress: Progress;
}

type Json = Record<string, unknown>;

/** The fields of an answered Object type that POST /object-types takes back. */
const TYPE_FIELDS = [
  'slug',
  'title',
  'singular',
  'emoji',
  'singleton',
  'metafields',
  'options',
  'localization',
  'locales',
  'priority_locale',
  'preview_link',
  'extensions',
  'order',
];

const defined = (source: Json, keys: readonly string[]): Json =>
  Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));

const list = (body: Json | null, key: string): Json[] =>
  body && Array.isArray(body[key]) ? (body[key] as unknown[]).filter(isPlainObject) : [];

/**
 * Copies a Bucket from any service speaking the v3 API through its public routes: the Object
 * types, the media (files downloaded from their URLs), the Objects page by page with `after`
 * (all statuses with a write key: latest versions, and the live version of each draft; with a
 * read key only, the live versions). What it reads becomes a bundle, imported as any other:
 * checked whole first, and continued by a rerun when interrupted. Revisions and webhooks are not
 * read (the hosted API does not list webhooks, and history is not public).
 */
export async function pullBucket(deps: ObjectWriteDeps, opts: PullOptions): Promise<ImportSummary> {
  const remote = new RemoteApi(opts);
  const writer = await BundleWriter.create();
  try {
    const types = await pullTypes(remote, writer);
    await pullMedia(remote, writer, opts);
    await pullObjects(remote, writer, types, opts);
    const file = opts.keep ?? path.join(writer.scratch, 'pulled.tar');
    opts.progress.phase('packing', writer.count('media'));
    await writer.finish(file, {
      source: { kind: 'pull', id: `pull:${remote.base}/buckets/${opts.bucket}`, url: remote.base, bucket: opts.bucket },
      revisions: false,
      gzip: false,
      openMedia: (record) => Promise.resolve(fs.createReadStream(downloadPath(writer, record.name))),
      onMediaPacked: () => {
        opts.progress.tick();
      },
    });
    return await importBundle(deps, opts.into, file, {
      dryRun: opts.dryRun,
      progress: opts.progress,
      mediaMaxBytes: opts.mediaMaxBytes,
    });
  } finally {
    await writer.discard();
  }
}

async function pullTypes(remote: RemoteApi, writer: BundleWriter): Promise<Map<string, Metafield[]>> {
  const types = new Map<string, Metafield[]>();
  for (const t of list(await remote.get('/object-types'), 'object_types')) {
    const record = defined(t, TYPE_FIELDS);
    await writer.add('object-types', record);
    // Checked when the bundle is imported; here they only guide reading answered metadata back.
    if (typeof t.slug === 'string') types.set(t.slug, Array.isArray(t.metafields) ? (t.metafields as Metafield[]) : []);
  }
  return types;
}

/** Where a media item's download waits to be packed: named by a digest, as names are the remote's. */
function downloadPath(writer: BundleWriter, name: string): string {
  return path.join(writer.scratch, `download-${createHash('sha256').update(name).digest('hex').slice(0, 32)}`);
}

async function pullMedia(remote: RemoteApi, writer: BundleWriter, opts: PullOptions): Promise<void> {
  let phase = false;
  for (let skip = 0; ; skip += opts.pageSize) {
    const page = await remote.get('/media', { limit: String(opts.pageSize), skip: String(skip) }, true);
    const items = list(page, 'media');
    if (!phase) {
      opts.progress.phase('media', typeof page?.total === 'number' ? page.total : 0);
      phase = true;
    }
    for (const m of items) {
      if (typeof m.name !== 'string' || typeof m.url !== 'string') continue;
      const size = await remote.download(m.url, downloadPath(writer, m.name));
      const created = m.created_at ?? m.created;
      await writer.add('media', {
        ...defined(m, ['id', 'name', 'original_name', 'type', 'folder', 'alt_text', 'metadata', 'width', 'height']),
        size,
        ...(typeof created === 'string' && { created_at: created }),
        ...defined(m, ['modified_at']),
      });
      opts.progress.tick();
    }
    if (items.length < opts.pageSize) return;
  }
}

async function pullObjects(
  remote: RemoteApi,
  writer: BundleWriter,
  types: ReadonlyMap<string, Metafield[]>,
  opts: PullOptions,
): Promise<void> {
  const status = opts.writeKey ? 'any' : 'published';
  let after: string | null = null;
  for (let first = true; ; first = false) {
    const params: Record<string, string> = { status, limit: String(opts.pageSize), useCache: 'false' };
    if (after !== null) params.after = after;
    const page = await remote.get('/objects', params, true);
    if (first) opts.progress.phase('objects', typeof page?.total === 'number' ? page.total : 0);
    const objects = list(page, 'objects');
    const drafts = objects.filter((o) => o.status === 'draft').map((o) => String(o.id));
    const live = new Map<unknown, Json>();
    if (status === 'any' && drafts.length > 0) {
      const query = JSON.stringify({ id: { $in: drafts } });
      const found = await remote.get(
        '/objects',
        { status: 'published', query, limit: String(drafts.length), useCache: 'false' },
        true,
      );
      for (const o of list(found, 'objects')) live.set(o.id, o);
    }
    for (const o of objects) {
      const metafields = types.get(String(o.type)) ?? [];
      await writer.add(
        'objects',
        objectFromAnswer(o, o.status === 'draft' ? (live.get(o.id) ?? null) : undefined, metafields),
      );
      opts.progress.tick();
    }
    const last = objects[objects.length - 1];
    if (!last || objects.length < opts.pageSize || typeof last.id !== 'string') return;
    after = last.id;
  }
}

/** An answered time in UNIX milliseconds (publish_at, unpublish_at) as the bundle's ISO text. */
const isoOf = (ms: unknown): string | null => (typeof ms === 'number' ? new Date(ms).toISOString() : null);

function versionFromAnswer(o: Json, metafields: Metafield[]): Json {
  const thumbnail = typeof o.thumbnail === 'string' && o.thumbnail !== '' ? mediaNameOfUrl(o.thumbnail) : null;
  return {
    ...defined(o, [
      'title',
      'slug',
      'status',
      'content',
      'locale',
      'order',
      'modified_at',
      'published_at',
      'modified_by',
    ]),
    thumbnail,
    metadata: isPlainObject(o.metadata) ? answerToWriteForm(metafields, o.metadata) : {},
  };
}

/** `live`: the live version of a draft (null: none); undefined when the answer is itself live. */
function objectFromAnswer(o: Json, live: Json | null | undefined, metafields: Metafield[]): Json {
  return {
    ...defined(o, ['id', 'type', 'created_at', 'created_by']),
    publish_at: isoOf(o.publish_at),
    unpublish_at: isoOf(o.unpublish_at),
    latest: versionFromAnswer(o, metafields),
    ...(live !== undefined && { live: live === null ? null : versionFromAnswer(live, metafields) }),
  };
}
