/**
 * MIME types from content, not from what the client claims: a stored type decides how a file
 * is served and whether it is processed as an image, so it must not be taken on trust.
 * Not file-type: its API is async only, it reads text starting "BM" as a bitmap and an ftyp box
 * of major brand mif1 with an avif brand as HEIF, and its current major needs Node 22.
 */

/** Bytes of a file's start that `sniffType` needs at most. */
export const SNIFF_BYTES = 64;

/** Callers check the length first; a byte past the end reads as 0, as bitwise operators read undefined. */
function byteAt(head: Uint8Array, i: number): number {
  return head[i] ?? 0;
}

function ascii(head: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...head.subarray(start, start + length));
}

function startsWith(head: Uint8Array, bytes: readonly number[], offset = 0): boolean {
  return head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);
}

/** ISO base media files (mp4, mov, avif, heic) name their kind by "brands" in the leading ftyp box. */
function isoBrandType(head: Uint8Array): string | null {
  if (head.length < 12 || ascii(head, 4, 4) !== 'ftyp') return null;
  const boxSize = (byteAt(head, 0) << 24) | (byteAt(head, 1) << 16) | (byteAt(head, 2) << 8) | byteAt(head, 3);
  const end = Math.min(head.length, boxSize > 8 ? boxSize : head.length);
  const major = ascii(head, 8, 4);
  const brands = [major];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(head, at, 4));
  if (major === 'avif' || major === 'avis') return 'image/avif';
  if (['heic', 'heix', 'heim', 'heis'].includes(major)) return 'image/heic';
  if (major === 'mif1' || major === 'msf1') return brands.includes('avif') ? 'image/avif' : 'image/heif';
  if (major === 'qt  ') return 'video/quicktime';
  if (major === 'M4A ' || major === 'M4B ') return 'audio/mp4';
  if (major.startsWith('3g')) return 'video/3gpp';
  return 'video/mp4';
}

function riffType(head: Uint8Array): string | null {
  if (ascii(head, 0, 4) !== 'RIFF' || head.length < 12) return null;
  const form = ascii(head, 8, 4);
  if (form === 'WEBP') return 'image/webp';
  if (form === 'WAVE') return 'audio/wav';
  if (form === 'AVI ') return 'video/x-msvideo';
  return null;
}

type Signature = readonly [type: string, bytes: readonly number[], offset?: number];

const SIGNATURES: readonly Signature[] = [
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]],
  ['image/tiff', [0x49, 0x49, 0x2a, 0x00]],
  ['image/tiff', [0x4d, 0x4d, 0x00, 0x2a]],
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['application/zip', [0x50, 0x4b, 0x03, 0x04]],
  ['application/zip', [0x50, 0x4b, 0x05, 0x06]],
  ['application/gzip', [0x1f, 0x8b]],
  ['video/webm', [0x1a, 0x45, 0xdf, 0xa3]],
  ['audio/ogg', [0x4f, 0x67, 0x67, 0x53]],
  ['audio/flac', [0x66, 0x4c, 0x61, 0x43]],
  ['audio/mpeg', [0x49, 0x44, 0x33]],
];

/** "BM" alone is too common a text start; a real bitmap also names a known DIB header size. */
function isBmp(head: Uint8Array): boolean {
  if (head.length < 18 || !startsWith(head, [0x42, 0x4d])) return false;
  const dibSize = byteAt(head, 14) | (byteAt(head, 15) << 8) | (byteAt(head, 16) << 16) | (byteAt(head, 17) << 24);
  return [12, 40, 52, 56, 64, 108, 124].includes(dibSize);
}

/** The type the first bytes prove, or null when they prove nothing (text, unknown formats). */
export function sniffType(head: Uint8Array): string | null {
  if (isBmp(head)) return 'image/bmp';
  const riff = riffType(head);
  if (riff) return riff;
  const iso = isoBrandType(head);
  if (iso) return iso;
  for (const [type, bytes, offset] of SIGNATURES) if (startsWith(head, bytes, offset)) return type;
  return null;
}

const BY_EXTENSION: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  heic: 'image/heic',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  avi: 'video/x-msvideo',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  json: 'application/json',
  xml: 'application/xml',
  csv: 'text/csv',
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  epub: 'application/epub+zip',
};

/** The lowercase extension of a file name, without the dot; '' when it has none. */
export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function typeForExtension(ext: string): string | undefined {
  return Object.hasOwn(BY_EXTENSION, ext) ? BY_EXTENSION[ext] : undefined;
}

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
/** Containers whose sniffed type is less precise than a plausible claim (a .docx is a zip). */
const GENERIC_CONTAINERS = new Set(['application/zip']);
const UNSPECIFIC = new Set(['application/octet-stream', 'binary/octet-stream', 'application/unknown']);

/**
 * The type to record: what the bytes prove; a claim (client MIME type, then extension) only
 * where the bytes prove nothing or merely show a generic container; else octet-stream.
 */
export function resolveType(head: Uint8Array, clientType: string | undefined, originalName: string): string {
  const sniffed = sniffType(head);
  const claimedMime = (clientType?.split(';')[0] ?? '').trim().toLowerCase();
  const claims = [
    MIME.test(claimedMime) && !UNSPECIFIC.has(claimedMime) ? claimedMime : undefined,
    typeForExtension(extensionOf(originalName)),
  ];
  if (sniffed && !GENERIC_CONTAINERS.has(sniffed)) return sniffed;
  // A claim may only narrow a sniffed container, never contradict what the bytes show.
  const claim = claims.find((c) => c !== undefined && (!sniffed || !c.startsWith('image/')));
  return claim ?? sniffed ?? 'application/octet-stream';
}

/** A preferred extension for a type, for names of files uploaded without one. */
export function extensionForType(type: string): string | undefined {
  const preferred: Record<string, string> = {
    'image/jpeg': 'jpg',
    'image/tiff': 'tif',
    'video/mp4': 'mp4',
    'text/plain': 'txt',
  };
  if (Object.hasOwn(preferred, type)) return preferred[type];
  return Object.keys(BY_EXTENSION).find((ext) => BY_EXTENSION[ext] === type);
}
