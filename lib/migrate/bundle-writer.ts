import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { pack as tarPack, type Pack } from 'tar-stream';
import { MigrationError } from '../errors/domain-errors.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  MANIFEST_ENTRY,
  SECTIONS,
  mediaEntry,
  sectionEntry,
  type BlockInfo,
  type BundleSource,
  type Counts,
  type Manifest,
  type MediaRecord,
  type Section,
} from './bundle-format.js';
import { ndjson } from './ndjson.js';

/** Appends lines to a file on disk, waiting whenever the disk falls behind. */
class Spool {
  readonly out: fs.WriteStream;
  count = 0;

  constructor(readonly file: string) {
    this.out = fs.createWriteStream(file);
  }

  async write(record: unknown): Promise<void> {
    this.count++;
    if (!this.out.write(`${JSON.stringify(record)}\n`)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'close');
  }
}

export interface FinishOptions {
  source: BundleSource;
  block?: BlockInfo;
  revisions: boolean;
  gzip: boolean;
  /** The bytes of a media item, exactly `record.size` of them. */
  openMedia: (record: MediaRecord) => Promise<AsyncIterable<unknown> | Iterable<Buffer>>;
  /** Called with the bytes of each media file once it is packed. */
  onMediaPacked?: (bytes: number) => void;
}

/**
 * Writes a bundle (bundle-format.ts) in constant memory. Records are spooled to temporary NDJSON
 * files as they come, so the manifest, which leads the tar, can give exact counts, and each tar
 * entry its size; then everything is packed, media streamed from `openMedia` one at a time. The
 * tar is written next to its destination and renamed into place only once complete, so an
 * interrupted export never leaves a truncated bundle under the name asked for.
 */
export class BundleWriter {
  private readonly spools: Record<Section, Spool>;
  private mediaBytes = 0;

  private constructor(private readonly dir: string) {
    this.spools = Object.fromEntries(SECTIONS.map((s) => [s, new Spool(path.join(dir, sectionEntry(s)))])) as Record<
      Section,
      Spool
    >;
  }

  static async create(): Promise<BundleWriter> {
    return new BundleWriter(await fs.promises.mkdtemp(path.join(os.tmpdir(), 'bundle-')));
  }

  /** A directory for the caller's own temporary files (downloads), removed with the spools. */
  get scratch(): string {
    return this.dir;
  }

  async add(section: Section, record: unknown): Promise<void> {
    if (section === 'media') this.mediaBytes += (record as MediaRecord).size;
    await this.spools[section].write(record);
  }

  count(section: Section): number {
    return this.spools[section].count;
  }

  async finish(file: string, opts: FinishOptions): Promise<Manifest> {
    for (const spool of Object.values(this.spools)) await spool.close();
    const counts = Object.fromEntries(SECTIONS.map((s) => [s, this.spools[s].count])) as Record<Section, number>;
    const manifest: Manifest = {
      format: BUNDLE_FORMAT,
      version: BUNDLE_VERSION,
      bundle_id: randomUUID(),
      created_at: new Date().toISOString(),
      source: opts.source,
      ...(opts.block && { block: opts.block }),
      revisions: opts.revisions,
      counts: { ...counts, media_bytes: this.mediaBytes } satisfies Counts,
    };
    const partial = `${file}.partial`;
    const tar = tarPack();
    const out = fs.createWriteStream(partial);
    const written = opts.gzip
      ? pipeline(Readable.from(tar), zlib.createGzip(), out)
      : pipeline(Readable.from(tar), out);
    try {
      const mtime = new Date(manifest.created_at);
      const head = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
      await writeEntry(tar, MANIFEST_ENTRY, mtime, head.length, [head]);
      for (const section of SECTIONS) {
        const { file: spooled } = this.spools[section];
        const { size } = await fs.promises.stat(spooled);
        await writeEntry(tar, sectionEntry(section), mtime, size, fs.createReadStream(spooled));
      }
      for await (const { value } of ndjson(fs.createReadStream(this.spools.media.file), 'media spool')) {
        const record = value as MediaRecord;
        await writeEntry(tar, mediaEntry(record.name), mtime, record.size, await opts.openMedia(record));
        opts.onMediaPacked?.(record.size);
      }
      tar.finalize();
      await written;
      await fs.promises.rename(partial, file);
    } catch (err) {
      tar.destroy(err as Error);
      await written.catch(() => undefined);
      await fs.promises.rm(partial, { force: true });
      throw err;
    }
    return manifest;
  }

  async discard(): Promise<void> {
    for (const spool of Object.values(this.spools)) spool.out.destroy();
    await fs.promises.rm(this.dir, { recursive: true, force: true });
  }
}

/** One tar entry of `size` bytes from a byte source; tar-stream refuses a source of another size. */
async function writeEntry(
  tar: Pack,
  name: string,
  mtime: Date,
  size: number,
  source: AsyncIterable<unknown> | Iterable<Buffer>,
): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const sink = tar.entry({ name, size, mtime, mode: 0o644 }, (err) => {
      if (err) reject(err.message === 'Size mismatch' ? sizeMismatch(name, size) : err);
      else resolve();
    });
    void (async () => {
      for await (const chunk of source) if (!sink.write(chunk)) await once(sink, 'drain');
      // streamx's end takes the last data; null means none.
      sink.end(null);
    })().catch((err: unknown) => {
      sink.destroy(err instanceof Error ? err : new Error(String(err)));
      reject(err instanceof Error ? err : new Error(String(err)));
    });
  });
}

function sizeMismatch(name: string, size: number): MigrationError {
  return new MigrationError(
    `${name} did not have the ${size} bytes its record gives (was it changed during the export?)`,
  );
}
