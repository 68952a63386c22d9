import type { FileHandle } from 'node:fs/promises';

/** One file of a plain tar, found by its header: where its bytes are, left unread. */
export interface TarFile {
  name: string;
  size: number;
  /** Where its bytes start in the tar. */
  offset: number;
}

/** A header that does not parse, or a tar that ends inside an entry. */
export class TarFormatError extends Error {}

const BLOCK = 512;
/** Pax and GNU long-name headers are a few bytes; tar-stream caps them alike. */
const MAX_LONG_HEADER = 1024 * 1024;
/** A header's checksum when every byte but the checksum field (read as spaces) is zero. */
const EMPTY_SUM = 8 * 32;

const char = (c: string) => c.charCodeAt(0);
const FILE_TYPES = new Set([0, char('0'), char('7')]);
const PAX = char('x');
const PAX_GLOBAL = char('g');
const GNU_LONG_NAME = char('L');
const GNU_LONG_LINK = char('K');

/**
 * The files of a plain (uncompressed) tar from `from` on, found by their headers alone: a file's
 * bytes are passed over by position, so an entry nobody asks for costs one 512-byte read whatever
 * its size. Names are read as tar-stream (which reads gzipped bundles) reads them: ustar names
 * with their prefix, pax `path` and `size` records, GNU long names. Directories and links hold no
 * bytes a bundle uses and are passed over.
 */
export async function* walkTar(handle: FileHandle, from = 0): AsyncGenerator<TarFile> {
  const { size: fileSize } = await handle.stat();
  const header = Buffer.alloc(BLOCK);
  let longName: string | null = null;
  let pax: Map<string, string> | null = null;
  // Ending at a block boundary without the two zero blocks is tolerated, as tar-stream does.
  for (let at = from; at < fileSize;) {
    const { bytesRead } = await handle.read(header, 0, BLOCK, at);
    if (bytesRead < BLOCK) throw new TarFormatError('unexpected end of data');
    const sum = checksum(header);
    if (sum === EMPTY_SUM) return; // the end-of-archive blocks
    if (sum !== number(header.subarray(148, 156)))
      throw new TarFormatError('invalid tar header (a corrupted tar, or one that needs to be gunzipped?)');
    const type = header[156] ?? 0;
    const long = type === PAX || type === GNU_LONG_NAME || type === PAX_GLOBAL || type === GNU_LONG_LINK;
    // A pax `size` is the size of the entry it precedes (one too large for the header field).
    const paxSize = long ? undefined : pax?.get('size');
    const size = paxSize === undefined ? number(header.subarray(124, 136)) : Number.parseInt(paxSize, 10);
    if (!Number.isSafeInteger(size) || size < 0) throw new TarFormatError('invalid size in a tar header');
    const offset = at + BLOCK;
    if (offset + size > fileSize) throw new TarFormatError('unexpected end of data');
    at = offset + Math.ceil(size / BLOCK) * BLOCK;
    if (type === PAX || type === GNU_LONG_NAME) {
      const data = await readLong(handle, offset, size);
      if (type === PAX) pax = paxRecords(data);
      else longName = text(data);
      continue;
    }
    if (type === PAX_GLOBAL || type === GNU_LONG_LINK) continue;
    const name = pax?.get('path') ?? longName ?? headerName(header);
    pax = null;
    longName = null;
    if (FILE_TYPES.has(type) && !name.endsWith('/')) yield { name, size, offset };
  }
}

async function readLong(handle: FileHandle, offset: number, size: number): Promise<Buffer> {
  if (size > MAX_LONG_HEADER) throw new TarFormatError('a tar long-name header exceeds its maximum size');
  const data = Buffer.alloc(size);
  await handle.read(data, 0, size, offset);
  return data;
}

function checksum(header: Buffer): number {
  let sum = EMPTY_SUM;
  for (let i = 0; i < BLOCK; i++) if (i < 148 || i >= 156) sum += header[i] ?? 0;
  return sum;
}

/** A numeric field: octal text (padded with spaces or NULs), or base-256 when its high bit is set. */
function number(field: Buffer): number {
  if ((field[0] ?? 0) & 0x80) {
    let value = (field[0] ?? 0) & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + (field[i] ?? 0);
    return value;
  }
  const digits = field.toString('latin1').replace(/\0.*$/s, '').trim();
  return digits === '' ? 0 : Number.parseInt(digits, 8);
}

function text(field: Buffer): string {
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}

/** A ustar header joins its prefix field to its name; older formats have no prefix. */
function headerName(header: Buffer): string {
  const name = text(header.subarray(0, 100));
  const ustar = header.subarray(257, 263).toString('latin1') === 'ustar\0';
  const prefix = ustar ? text(header.subarray(345, 500)) : '';
  return prefix ? `${prefix}/${name}` : name;
}

/** Pax records: `<length> <key>=<value>\n`, the length counting the whole record. */
function paxRecords(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(32, at);
    const length = space === -1 ? NaN : Number.parseInt(data.toString('latin1', at, space), 10);
    if (!(length > 0) || at + length > data.length) break;
    const record = data.toString('utf8', space + 1, at + length - 1);
    const eq = record.indexOf('=');
    if (eq > 0) records.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return records;
}
