import fs from 'node:fs';
import zlib from 'node:zlib';
import { extract, type Extract } from 'tar-stream';
import { MigrationError } from '../errors/domain-errors.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  MANIFEST_ENTRY,
  MEDIA_PREFIX,
  sectionEntry,
  type Manifest,
  type Section,
} from './bundle-format.js';
import { ndjson } from './ndjson.js';
import { checkRecord } from './record-schemas.js';

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
 * Reads a bundle (lib/migrate/bundle-format.ts) by scanning it from the start for what is asked,
 * as many times as asked: nothing but the entry being read is held in memory, so a bundle of any
 * size reads in constant memory, and each section can be read on its own (or two side by side).
 */
export class BundleReader {
  private constructor(
    readonly file: string,
    private readonly gzip: boolean,
    readonly manifest: Manifest,
  ) {}

  static async open(file: string): Promise<BundleReader> {
    let gzip: boolean;
    try {
      gzip = await startsWithGzipMagic(file);
    } catch (err) {
      throw new MigrationError(`cannot read ${file}: ${(err as Error).message}`);
    }
    for await (const entry of scanEntries(file, gzip)) {
      if (entry.header.name !== MANIFEST_ENTRY)
        throw new MigrationError(
          `${file} is not a bundle: its first entry is "${entry.header.name}", not ${MANIFEST_ENTRY}`,
        );
      return new BundleReader(file, gzip, parseManifest(await readAll(entry), file));
    }
    throw new MigrationError(`${file} is not a bundle: it is empty`);
  }

  /** The records of one section, in order, each with its line. */
  async *records(section: Section): AsyncGenerator<BundleRecord> {
    const name = sectionEntry(section);
    for await (const entry of this.entries()) {
      if (entry.header.name !== name) continue;
      for await (const { line, value } of ndjson(guarded(entry, this.file), name))
        yield { line, value, where: `${name} line ${line}` };
      return;
    }
    throw new MigrationError(`${this.file} is damaged: it has no ${name}`);
  }

  /** The media files, in the order of media.ndjson. */
  async *mediaFiles(): AsyncGenerator<MediaFile> {
    for await (const entry of this.entries()) {
      const { name, size } = entry.header;
      if (name.startsWith(MEDIA_PREFIX))
        yield { name: name.slice(MEDIA_PREFIX.length), size, stream: guarded(entry, this.file) };
    }
  }

  private entries(): AsyncGenerator<TarEntry> {
    return scanEntries(this.file, this.gzip);
  }
}

/** Every entry of the tar from the start; each is drained if the consumer left it unread. */
async function* scanEntries(file: string, gzip: boolean): AsyncGenerator<TarEntry> {
  const source = fs.createReadStream(file);
  const tar = extract();
  const fail = (err: Error) => {
    tar.destroy(new MigrationError(`${file} is not a readable bundle: ${err.message}`));
  };
  source.on('error', fail);
  if (gzip) {
    const gunzip = zlib.createGunzip();
    gunzip.on('error', fail);
    source.pipe(gunzip).pipe(tar);
  } else source.pipe(tar);
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
    if (length > 1024 * 1024) throw new MigrationError(`${MANIFEST_ENTRY} is larger than 1 MB`);
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
