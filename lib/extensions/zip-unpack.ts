import zlib from 'node:zlib';
import { ZipRefusal, type ZipEntry } from './zip-check.js';

/**
 * The bytes of one entry from its stored data (`compressedSize` bytes at its data offset):
 * stored as is, or inflated, never past the size the directory declares, so a deflate bomb
 * stops at its declared size. Throws ZipRefusal when the bytes disagree with the directory.
 */
export function unpackEntry(data: Buffer, entry: Pick<ZipEntry, 'name' | 'method' | 'size' | 'crc32'>): Buffer {
  let bytes: Buffer;
  try {
    bytes = entry.method === 0 ? data : zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
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
export function verifyContents(buf: Buffer, entries: readonly ZipEntry[], maxUnpackedBytes: number): void {
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  if (total > maxUnpackedBytes) {
    throw new ZipRefusal(`the archive unpacks to ${total} bytes, over the ${maxUnpackedBytes}-byte cap`);
  }
  for (const entry of entries)
    unpackEntry(buf.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize), entry);
}
