import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { extract, type Extract } from 'tar-stream';
import { MigrationError } from '../errors/domain-errors.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  MANIFEST_ENTRY,
  MEDIA_PREFIX,
  SECTIONS,
  sectionEntry,
  type Manifest,
  type Section,
} from './bundle-format.js';
import { ndjson } from './ndjson.js';
import { checkRecord } from './record-schemas.js';
import { TarFormatError, walkTar } from './tar-walk.js';

export interface BundleRecord {
  line: number;
  value: unknown;
  /** "objects.ndjson line 12", for messages. */
  where: string;
}

/** One entry of the tar: its header and its bytes. */
type TarEntry = Extract extends AsyncIterable<infer E> ? E : never;

export interface MediaFile {
  /** The media name (the entry's name without `media/`). */
  name: string;
  size: number;
  stream: AsyncIterable<unknown>;
}

/** Where an entry's bytes are: a range of the bundle itself (plain tar) or a spooled copy (gzip). */
interface Span {
  file: string;
  start: number;
  size: number;
}

/** The sections that were found, by entry name, and the manifest that leads them. */
interface Layout {
  manifest: Manifest;
  sections: Map<string, Span>;
}

const SECTION_ENTRIES: ReadonlySet<string> = new Set(SECTIONS.map(sectionEntry));
const MANIFEST_MAX_BYTES = 1024 * 1024;
/** Large reads through gunzip and tar-stream: an entry nobody reads drains in fewer, bigger steps. */
const GZIP_CHUNK_BYTES = 256 * 1024;

async function startsWithGzipMagic(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * Reads a bundle (lib/migrate/bundle-format.ts). Opening it finds the manifest and each section;
 * each section can then be read as often as asked (two side by side), holding nothing but the
 * line being read, so a bundle of any size reads in constant memory. An entry the reader does not
 * use is never read: in a plain tar it is passed over by its header's size; a gzipped bundle
 * cannot be entered mid-stream, so its sections are inflated once into temporary files at open
 * (removed by close) and what they pass over is inflated once there and once more for the media.
 */
export class BundleReader {
  private constructor(
    readonly file: string,
    private readonly gzip: boolean,
    readonly manifest: Manifest,
    private readonly sections: ReadonlyMap<string, Span>,
    private readonly spoolDir: string | null,
  ) {}

  static async open(file: string): Promise<BundleReader> {
    let gzip: boolean;
    try {
      gzip = await startsWithGzipMagic(file);
    } catch (err) {
      throw new MigrationError(`cannot read ${file}: ${(err as Error).message}`);
    }
    if (!gzip) {
      const { manifest, sections } = await locatePlain(file);
      return new BundleReader(file, false, manifest, sections, null);
    }
    const spoolDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'bucket-bundle-'));
    try {
      const { manifest, sections } = await spoolGzipped(file, spoolDir);
      return new BundleReader(file, true, manifest, sections, spoolDir);
    } catch (err) {
      await fs.promises.rm(spoolDir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Removes what open spooled; the reader reads no more. */
  async close(): Promise<void> {
    if (this.spoolDir) await fs.promises.rm(this.spoolDir, { recursive: true, force: true });
  }

  /** The records of one section, in order, each with its line. */
  async *records(section: Section): AsyncGenerator<BundleRecord> {
    const name = sectionEntry(section);
    const span = this.sections.get(name);
    if (!span) throw new MigrationError(`${this.file} is damaged: it has no ${name}`);
    for await (const { line, value } of ndjson(guarded(readSpan(span), this.file), name))
      yield { line, value, where: `${name} line ${line}` };
  }

  /** The media files, in the order of media.ndjson. */
  async *mediaFiles(): AsyncGenerator<MediaFile> {
    if (this.gzip) {
      for await (const entry of scanEntries(this.file)) {
        const { name, size } = entry.header;
        if (name.startsWith(MEDIA_PREFIX))
          yield { name: name.slice(MEDIA_PREFIX.length), size, stream: guarded(entry, this.file) };
      }
      return;
    }
    const handle = await openBundle(this.file);
    try {
      for await (const { name, size, offset } of readable(walkTar(handle), this.file)) {
        if (!name.startsWith(MEDIA_PREFIX)) continue;
        const stream = guarded(readSpan({ file: this.file, start: offset, size }), this.file);
        yield { name: name.slice(MEDIA_PREFIX.length), size, stream };
      }
    } finally {
      await handle.close();
    }
  }
}

/** A plain tar: the manifest and each section's place, from their headers; nothing else is read. */
async function locatePlain(file: string): Promise<Layout> {
  const handle = await openBundle(file);
  try {
    let manifest: Manifest | null = null;
    const sections = new Map<string, Span>();
    for await (const { name, size, offset } of readable(walkTar(handle), file)) {
      if (!manifest) {
        if (name !== MANIFEST_ENTRY) throw notFirst(file, name);
        if (size > MANIFEST_MAX_BYTES) throw tooLarge();
        const raw = Buffer.alloc(size);
        await handle.read(raw, 0, size, offset);
        manifest = parseManifest(raw, file);
      } else if (SECTION_ENTRIES.has(name) && !sections.has(name)) {
        sections.set(name, { file, start: offset, size });
        if (sections.size === SECTION_ENTRIES.size) break;
      }
    }
    if (!manifest) throw new MigrationError(`${file} is not a bundle: it is empty`);
    return { manifest, sections };
  } finally {
    await handle.close();
  }
}

/** A gzipped bundle: its sections inflated once into `dir`, up to the last of them. */
async function spoolGzipped(file: string, dir: string): Promise<Layout> {
  let manifest: Manifest | null = null;
  const sections = new Map<string, Span>();
  for await (const entry of scanEntries(file)) {
    const { name, size } = entry.header;
    if (!manifest) {
      if (name !== MANIFEST_ENTRY) throw notFirst(file, name);
      manifest = parseManifest(await readAll(entry), file);
    } else if (SECTION_ENTRIES.has(name) && !sections.has(name)) {
      const copy = path.join(dir, name);
      await pipeline(guarded(entry, file), fs.createWriteStream(copy));
      sections.set(name, { file: copy, start: 0, size });
      if (sections.size === SECTION_ENTRIES.size) break;
    }
  }
  if (!manifest) throw new MigrationError(`${file} is not a bundle: it is empty`);
  return { manifest, sections };
}

async function openBundle(file: string): Promise<FileHandle> {
  try {
    return await fs.promises.open(file, 'r');
  } catch (err) {
    throw new MigrationError(`cannot read ${file}: ${(err as Error).message}`);
  }
}

/** A span's bytes, read from its place (none for an empty entry: a range cannot be empty). */
async function* readSpan(span: Span): AsyncGenerator {
  if (span.size === 0) return;
  yield* fs.createReadStream(span.file, { start: span.start, end: span.start + span.size - 1 });
}

const notFirst = (file: string, name: string) =>
  new MigrationError(`${file} is not a bundle: its first entry is "${name}", not ${MANIFEST_ENTRY}`);
const tooLarge = () => new MigrationError(`${MANIFEST_ENTRY} is larger than 1 MB`);

/** The walk of a plain tar, a malformed header told as an unreadable bundle. */
async function* readable<T>(walk: AsyncGenerator<T>, file: string): AsyncGenerator<T> {
  try {
    yield* walk;
  } catch (err) {
    if (err instanceof TarFormatError) throw new MigrationError(`${file} is not a readable bundle: ${err.message}`);
    throw err;
  }
}

/** Every entry of a gzipped tar from the start; each is drained if the consumer left it unread. */
async function* scanEntries(file: string): AsyncGenerator<TarEntry> {
  const source = fs.createReadStream(file, { highWaterMark: GZIP_CHUNK_BYTES });
  const tar = extract();
  const fail = (err: Error) => {
    tar.destroy(new MigrationError(`${file} is not a readable bundle: ${err.message}`));
  };
  source.on('error', fail);
  const gunzip = zlib.createGunzip({ chunkSize: GZIP_CHUNK_BYTES });
  gunzip.on('error', fail);
  source.pipe(gunzip).pipe(tar);
  try {
    for await (const entry of tar) {
      yield entry;
      entry.resume();
    }
  } catch (err) {
    if (err instanceof MigrationError) throw err;
    throw new MigrationError(`${file} is not a readable bundle: ${(err as Error).message}`);
  } finally {
    source.destroy();
    tar.destroy();
  }
}

/** An entry's bytes, a tar or gzip failure met while reading them told as a damaged bundle. */
async function* guarded(entry: AsyncIterable<unknown>, file: string): AsyncGenerator {
  try {
    for await (const chunk of entry) yield chunk;
  } catch (err) {
    if (err instanceof MigrationError) throw err;
    throw new MigrationError(`${file} is not a readable bundle: ${(err as Error).message}`);
  }
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  for await (const piece of stream) {
    parts.push(piece as Buffer);
    length += (piece as Buffer).length;
    if (length > MANIFEST_MAX_BYTES) throw tooLarge();
  }
  return Buffer.concat(parts);
}

function parseManifest(raw: Buffer, file: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new MigrationError(`${file}: ${MANIFEST_ENTRY} is not JSON: ${(err as Error).message}`);
  }
  const head = value as { format?: unknown; version?: unknown } | null;
  if (head?.format !== BUNDLE_FORMAT)
    throw new MigrationError(`${file} is not a bundle: ${MANIFEST_ENTRY} does not say "format": "${BUNDLE_FORMAT}"`);
  if (typeof head.version !== 'number' || head.version > BUNDLE_VERSION)
    throw new MigrationError(
      `${file} has bundle format version ${String(head.version)}; this bucketctl reads version ${BUNDLE_VERSION}`,
    );
  return checkRecord('manifest', value, `${file}: ${MANIFEST_ENTRY}`);
}
