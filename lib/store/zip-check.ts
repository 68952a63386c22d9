/** Bounds on an extension archive (EXTENSION_ZIP_MAX_BYTES, EXTENSION_ZIP_MAX_ENTRIES). */
export interface ZipLimits {
  maxBytes: number;
  maxEntries: number;
}

/** One file or folder of a checked archive, with where its bytes lie in the buffer. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated: the only two the checker lets through. */
  method: 0 | 8;
  compressedSize: number;
  size: number;
  crc32: number;
  dataOffset: number;
}

/** Why an archive is refused; the message names the problem for the client. */
export class ZipRefusal extends Error {}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;
const FLAG_ENCRYPTED = 0x1;
const FLAG_UTF8 = 0x800;

function refuse(message: string): never {
  throw new ZipRefusal(message);
}

/** The end-of-central-directory record: searched backwards, as its comment may follow it. */
function findEocd(buf: Buffer): number {
  const lowest = Math.max(0, buf.length - EOCD_SIZE - MAX_COMMENT);
  for (let at = buf.length - EOCD_SIZE; at >= lowest; at--) {
    if (buf.readUInt32LE(at) === EOCD_SIGNATURE && at + EOCD_SIZE + buf.readUInt16LE(at + 20) === buf.length) {
      return at;
    }
  }
  return refuse('not a zip archive: no end-of-central-directory record (not a zip, or truncated)');
}

/**
 * Why an entry name could write outside the folder it is unpacked into (zip slip), or null:
 * absolute paths (`/`, `\`, drive letters), any `..` segment, NUL.
 */
export function entryNameProblem(name: string): string | null {
  if (name === '') return 'an entry has an empty name';
  if (name.includes('\0')) return `entry "${name.replace(/\0/g, '\\0')}" contains a NUL character`;
  if (/^[/\\]/.test(name) || /^[A-Za-z]:/.test(name)) return `entry "${name}" has an absolute path`;
  if (name.split(/[/\\]/).includes('..')) return `entry "${name}" contains a ".." segment (zip slip)`;
  return null;
}

interface CentralEntry extends Omit<ZipEntry, 'dataOffset'> {
  nameBytes: Buffer;
  flags: number;
  localOffset: number;
  /** Where the next central entry starts. */
  next: number;
}

function readCentral(buf: Buffer, at: number, end: number, index: number): CentralEntry {
  if (at + CENTRAL_SIZE > end || buf.readUInt32LE(at) !== CENTRAL_SIGNATURE) {
    refuse(`central directory entry ${index + 1} is missing or damaged`);
  }
  const flags = buf.readUInt16LE(at + 8);
  const method = buf.readUInt16LE(at + 10);
  const nameLength = buf.readUInt16LE(at + 28);
  const next = at + CENTRAL_SIZE + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  if (next > end) refuse(`central directory entry ${index + 1} runs past the directory`);
  const nameBytes = buf.subarray(at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength);
  const name = nameBytes.toString(flags & FLAG_UTF8 ? 'utf8' : 'latin1');
  const problem = entryNameProblem(name);
  if (problem !== null) refuse(problem);
  if (flags & FLAG_ENCRYPTED) refuse(`entry "${name}" is encrypted`);
  if (method !== 0 && method !== 8)
    refuse(`entry "${name}" uses compression method ${method} (only stored and deflate)`);
  return {
    name,
    nameBytes,
    flags,
    method,
    crc32: buf.readUInt32LE(at + 16),
    compressedSize: buf.readUInt32LE(at + 20),
    size: buf.readUInt32LE(at + 24),
    localOffset: buf.readUInt32LE(at + 42),
    next,
  };
}

/** The local header must be there and agree with the central entry; its data must end before the directory. */
function dataOffsetOf(buf: Buffer, entry: CentralEntry, directoryStart: number): number {
  const at = entry.localOffset;
  if (at + LOCAL_SIZE > directoryStart || buf.readUInt32LE(at) !== LOCAL_SIGNATURE) {
    refuse(`entry "${entry.name}": no local file header at offset ${at}`);
  }
  const nameLength = buf.readUInt16LE(at + 26);
  const dataOffset = at + LOCAL_SIZE + nameLength + buf.readUInt16LE(at + 28);
  const sameName = buf.subarray(at + LOCAL_SIZE, at + LOCAL_SIZE + nameLength).equals(entry.nameBytes);
  if (!sameName || buf.readUInt16LE(at + 8) !== entry.method) {
    refuse(`entry "${entry.name}": its local header disagrees with the central directory`);
  }
  if (dataOffset + entry.compressedSize > directoryStart) refuse(`entry "${entry.name}" is truncated`);
  return dataOffset;
}

/**
 * Checks that `buf` is a zip archive a browser extension can be unpacked from safely, reading only
 * its structure: the end record, every central directory entry, and each entry's local header.
 * Throws ZipRefusal naming the first problem; otherwise returns the entries.
 * Not yauzl: it is async only, gives no entry's data offset without reading its local header,
 * and checks no CRC-32, so every check here would stay beside a second zip reader.
 */
export function checkZip(buf: Buffer, limits: ZipLimits): ZipEntry[] {
  if (buf.length > limits.maxBytes) refuse(`the archive is ${buf.length} bytes, over the ${limits.maxBytes}-byte cap`);
  if (buf.length < EOCD_SIZE) refuse('not a zip archive: too short');
  const eocd = findEocd(buf);
  const count = buf.readUInt16LE(eocd + 10);
  const directorySize = buf.readUInt32LE(eocd + 12);
  const directoryStart = buf.readUInt32LE(eocd + 16);
  if (buf.readUInt16LE(eocd + 4) !== 0 || buf.readUInt16LE(eocd + 6) !== 0 || buf.readUInt16LE(eocd + 8) !== count) {
    refuse('multi-disk archives are not accepted');
  }
  if (count === 0xffff || directoryStart === 0xffffffff) refuse('ZIP64 archives are not accepted');
  if (count > limits.maxEntries) refuse(`the archive has ${count} entries, over the ${limits.maxEntries}-entry cap`);
  if (count === 0) refuse('the archive is empty');
  const directoryEnd = directoryStart + directorySize;
  if (directoryEnd > eocd) refuse('the central directory lies outside the archive (truncated or damaged)');
  const seen = new Set<string>();
  const entries: ZipEntry[] = [];
  let at = directoryStart;
  for (let i = 0; i < count; i++) {
    const central = readCentral(buf, at, directoryEnd, i);
    if (seen.has(central.name)) refuse(`entry "${central.name}" appears twice`);
    seen.add(central.name);
    const { name, method, compressedSize, size, crc32 } = central;
    entries.push({ name, method, compressedSize, size, crc32, dataOffset: dataOffsetOf(buf, central, directoryStart) });
    at = central.next;
  }
  if (at !== directoryEnd) refuse('the central directory size disagrees with its entries');
  return entries;
}
