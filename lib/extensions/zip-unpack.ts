import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { ZipRefusal, type ZipEntry } from './zip-check.js';

// In the thread pool: an archive may unpack to EXTENSION_MAX_UNPACKED_BYTES, and inflating that
// on the event loop would stall every other request (the files route takes no credential).
const inflateRaw = promisify(zlib.inflateRaw) as (buf: Buffer, options: zlib.ZlibOptions) => Promise<Buffer>;

/**
 * The bytes of one entry from its stored data (`compressedSize` bytes at its data offset):
 * stored as is, or inflated, never past the size the directory declares, so a deflate bomb
 * stops at its declared size. Throws ZipRefusal when the bytes disagree with the directory.
 */
export async function unpackEntry(
  data: Buffer,
  entry: Pick<ZipEntry, 'name' | 'method' | 'size' | 'crc32'>,
): Promise<Buffer> {
  let bytes: Buffer;
  try {
    bytes = entry.method === 0 ? data : await inflateRaw(data, { maxOutputLength: Math.max(1, entry.size) });
  } catch (err) {
    const why = err instanceof RangeError ? 'inflates past its declared size' : 'does not inflate';
    throw new ZipRefusal(`entry "${entry.name}" is damaged: it ${why}`);
  }
  if (bytes.length !== entry.size || zlib.crc32(bytes) !== entry.crc32) {
    throw new ZipRefusal(`entry "${entry.name}" is damaged: its size or CRC-32 disagrees with the directory`);
  }
  return bytes;
}

/**
 * Unpacks every entry once, in memory, to prove the archive can be served: the declared sizes
 * together stay within `maxUnpackedBytes` (checked before anything is inflated), and each entry
 * inflates to exactly its declared size and CRC-32.
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
  for (const entry of entries)
    await unpackEntry(buf.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize), entry);
}
