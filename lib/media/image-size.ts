import sharp from 'sharp';

export interface PixelSize {
  width: number;
  height: number;
}

/**
 * How much of a file's start is kept for reading image dimensions. JPEG frames can follow a
 * large EXIF block, so this is generous; it is held only while the upload runs.
 */
export const HEADER_BYTES = 256 * 1024;

/** Callers check the length first; a byte past the end reads as 0, as bitwise operators read undefined. */
const at = (b: Uint8Array, i: number) => b[i] ?? 0;
const be16 = (b: Uint8Array, i: number) => (at(b, i) << 8) | at(b, i + 1);
const le16 = (b: Uint8Array, i: number) => at(b, i) | (at(b, i + 1) << 8);
const be32 = (b: Uint8Array, i: number) =>
  ((at(b, i) << 24) | (at(b, i + 1) << 16) | (at(b, i + 2) << 8) | at(b, i + 3)) >>> 0;
const le24 = (b: Uint8Array, i: number) => at(b, i) | (at(b, i + 1) << 8) | (at(b, i + 2) << 16);
const le32s = (b: Uint8Array, i: number) =>
  at(b, i) | (at(b, i + 1) << 8) | (at(b, i + 2) << 16) | (at(b, i + 3) << 24);

function sized(width: number, height: number): PixelSize | null {
  return width > 0 && height > 0 ? { width, height } : null;
}

function pngSize(b: Uint8Array): PixelSize | null {
  return b.length >= 24 ? sized(be32(b, 16), be32(b, 20)) : null;
}

function gifSize(b: Uint8Array): PixelSize | null {
  return b.length >= 10 ? sized(le16(b, 6), le16(b, 8)) : null;
}

function bmpSize(b: Uint8Array): PixelSize | null {
  if (b.length < 26) return null;
  const dib = le32s(b, 14);
  return dib === 12 ? sized(le16(b, 18), le16(b, 20)) : sized(le32s(b, 18), Math.abs(le32s(b, 22)));
}

/** Lossy (VP8), lossless (VP8L) and extended (VP8X) WebP each keep the size in their own layout. */
function webpSize(b: Uint8Array): PixelSize | null {
  if (b.length < 30) return null;
  const chunk = String.fromCharCode(...b.subarray(12, 16));
  if (chunk === 'VP8 ') return sized(le16(b, 26) & 0x3fff, le16(b, 28) & 0x3fff);
  if (chunk === 'VP8L') {
    const [b0, b1, b2, b3] = [at(b, 21), at(b, 22), at(b, 23), at(b, 24)];
    return sized(1 + (((b1 & 0x3f) << 8) | b0), 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)));
  }
  if (chunk === 'VP8X') return sized(1 + le24(b, 24), 1 + le24(b, 27));
  return null;
}

/** Walks JPEG markers to the first start-of-frame, which holds the size. */
function jpegSize(b: Uint8Array): PixelSize | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = at(b, i + 1);
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      i += 2; // markers without a length
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return sized(be16(b, i + 7), be16(b, i + 5));
    i += 2 + be16(b, i + 2);
  }
  return null;
}

const PARSERS: ReadonlyMap<string, (b: Uint8Array) => PixelSize | null> = new Map([
  ['image/png', pngSize],
  ['image/gif', gifSize],
  ['image/bmp', bmpSize],
  ['image/webp', webpSize],
  ['image/jpeg', jpegSize],
]);

/**
 * Dimensions read from header bytes for the formats whose layout is simple; null otherwise.
 * Synchronous and cheap (about 1 µs); sharp's metadata() takes 100–400 µs and fails on the
 * first kilobyte of a GIF or WebP, so it reads only the formats these parsers do not (below).
 */
export function parseImageSize(type: string, head: Uint8Array): PixelSize | null {
  return PARSERS.get(type)?.(head) ?? null;
}

/**
 * An image's dimensions from its first bytes: parsed directly where the layout is simple, else
 * by the image library reading only the header (AVIF, HEIF, TIFF keep it near the start).
 * Never reads the whole file, so a large upload costs no extra memory; unknown gives null.
 */
export async function probeImageSize(type: string, head: Uint8Array): Promise<PixelSize | null> {
  if (!type.startsWith('image/')) return null;
  const parsed = parseImageSize(type, head);
  if (parsed) return parsed;
  if (type === 'image/svg+xml') return null;
  try {
    const meta = await sharp(head, { limitInputPixels: false }).metadata();
    return meta.width && meta.height ? { width: meta.width, height: meta.height } : null;
  } catch {
    return null;
  }
}
