import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { ByteRange } from '../media/range.js';
import { ZipRefusal, type ZipEntry } from '../store/zip-check.js';

/** Reads the bytes [start, end) of a kept archive, a chunk at a time. */
export type ArchiveReader = (start: number, end: number) => AsyncIterable<Buffer> | Iterable<Buffer>;

function damaged(entry: Pick<ZipEntry, 'name'>, why: string): never {
  throw new ZipRefusal(`entry "${entry.name}" is damaged: ${why}`);
}

/**
 * Inflates in the thread pool, a chunk (16 KiB) at a time as the consumer asks for it, so a
 * large entry never sits in memory whole and a slow client slows the inflating.
 */
async function* inflated(
  stored: AsyncIterable<Buffer> | Iterable<Buffer>,
  entry: Pick<ZipEntry, 'name'>,
): AsyncGenerator<Buffer> {
  const inflate = zlib.createInflateRaw();
  // A failure of the reader reaches `inflate` (and so the loop below) as it is.
  pipeline(Readable.from(stored), inflate, () => undefined);
  try {
    for await (const chunk of inflate) yield chunk as Buffer;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('Z_')) damaged(entry, 'it does not inflate');
    throw err;
  } finally {
    // Leaving early (a range sent, a client gone) stops the inflating and the reading.
    inflate.destroy();
  }
}

/**
 * Passes on the bytes [from, to) of `chunks`, which should come to `size` bytes with this
 * CRC-32 (null: not checked, as when only a range is read). More than `size` bytes is refused
 * as soon as it shows (a deflate bomb stops at its declared size). The last chunk is held back
 * until the check passes, so a damaged entry never arrives whole.
 */
async function* checked(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  entry: Pick<ZipEntry, 'name'>,
  want: { size: number; crc32: number | null; from: number; to: number },
): AsyncGenerator<Buffer> {
  let seen = 0;
  let crc = 0;
  let held: Buffer | null = null;
  for await (const chunk of chunks) {
    if (seen + chunk.length > want.size) damaged(entry, 'it inflates past its declared size');
    if (want.crc32 !== null) crc = zlib.crc32(chunk, crc);
    const part = chunk.subarray(Math.max(0, want.from - seen), Math.max(0, want.to - seen));
    seen += chunk.length;
    if (part.length > 0) {
      if (held) yield held;
      held = part;
    }
    if (want.crc32 === null && seen >= want.to) break;
  }
  if (seen < want.to || (want.crc32 !== null && (seen !== want.size || crc !== want.crc32))) {
    damaged(entry, 'its size or CRC-32 disagrees with the directory');
  }
  if (held) yield held;
}

/**
 * The bytes of one entry of a kept archive, or of `range` of them, streamed: a stored entry is
 * read for just those bytes, a deflated one is inflated from its start and cut. A whole entry
 * is checked against its declared size and CRC-32; throws ZipRefusal when they disagree.
 */
export function entryBytes(
  read: ArchiveReader,
  entry: Pick<ZipEntry, 'name' | 'method' | 'size' | 'crc32' | 'dataOffset' | 'compressedSize'>,
  range: ByteRange | null = null,
): AsyncGenerator<Buffer> {
  const { dataOffset: at, size, crc32 } = entry;
  if (entry.method === 0 && entry.compressedSize !== size)
    damaged(entry, 'its size or CRC-32 disagrees with the directory');
  if (entry.method === 0 && range) {
    const length = range.end - range.start + 1;
    const slice = read(at + range.start, at + range.end + 1);
    return checked(slice, entry, { size: length, crc32: null, from: 0, to: length });
  }
  const stored = read(at, at + entry.compressedSize);
  const bytes = entry.method === 0 ? stored : inflated(stored, entry);
  const want = range ? { size, crc32: null, from: range.start, to: range.end + 1 } : { size, crc32, from: 0, to: size };
  return checked(bytes, entry, want);
}

/**
 * Unpacks every entry once, a chunk at a time, to prove the archive can be served: the declared
 * sizes together stay within `maxUnpackedBytes` (checked before anything is inflated), and each
 * entry inflates to exactly its declared size and CRC-32.
 */
export async function verifyContents(
  buf: Buffer,
  entries: readonly ZipEntry[],
  maxUnpackedBytes: number,
): Promise<void> {
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  if (total > maxUnpackedBytes) {
    throw new ZipRefusal(`the archive unpacks to ${total} bytes, over the ${maxUnpackedBytes}-byte cap`);
  }
  const read: ArchiveReader = (start, end) => [buf.subarray(start, end)];
  // The checks run as the bytes pass; the bytes themselves are not kept.
  for (const entry of entries) {
    let unpacked = 0;
    for await (const chunk of entryBytes(read, entry)) unpacked += chunk.length;
    if (unpacked !== entry.size) throw new ZipRefusal(`entry "${entry.name}" unpacked to ${unpacked} bytes`);
  }
}
