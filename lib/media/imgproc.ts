import type { Db, GridFSFile, ObjectId } from 'mongodb';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { mediaFiles, mediaVariants, type MediaDoc, type StoredFileMeta } from '../db/media-collection.js';
import { BadRequestError } from '../errors/http-errors.js';
import { FORMAT_TYPES, variantKey, type ResolvedParams } from './imgproc-params.js';

/** Originals above this are not decoded: the processor holds its input in memory. */
export const MAX_INPUT_BYTES = 50 * 1024 * 1024;
/** Decoded pixels allowed per input (about 8000 x 6000); guards against decompression bombs. */
export const MAX_INPUT_PIXELS = 50_000_000;
/** Images processed at once per process; more requests wait rather than pile up memory. */
const MAX_CONCURRENT = 2;

let running = 0;
const waiting: Array<() => void> = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

export interface Variant {
  file: GridFSFile;
  contentType: string;
  /** false when this request made it. */
  cached: boolean;
}

/** Variants are named by the original's file id, so a re-upload can never be served a stale one. */
function variantName(media: MediaDoc, params: ResolvedParams): string {
  return `${media.file_id.toHexString()}/${variantKey(params)}`;
}

async function findVariant(db: Db, name: string): Promise<GridFSFile | null> {
  const [file] = await mediaVariants(db).find({ filename: name }).sort({ uploadDate: -1 }).limit(1).toArray();
  return file ?? null;
}

async function readOriginal(db: Db, fileId: ObjectId): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of mediaFiles(db).openDownloadStream(fileId)) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** The image transformed as asked. Bad or over-large images are the request's problem: 400. */
async function transform(input: Buffer, media: MediaDoc, params: ResolvedParams): Promise<Buffer> {
  try {
    const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      // Applies EXIF orientation, so the output is upright and w/h mean what the viewer sees.
      .rotate();
    if (params.width || params.height) image.resize({ width: params.width, height: params.height, fit: params.fit });
    const options = params.quality === undefined ? {} : { quality: params.quality };
    return await image.toFormat(params.format, options).toBuffer();
  } catch (err) {
    const detail = err instanceof Error ? err.message.split('\n')[0] : 'unreadable image';
    throw new BadRequestError(`Media '${media.name}' could not be processed as an image: ${detail}`);
  }
}

/**
 * A processed image: the stored variant when one exists (no processing at all), otherwise made
 * now and stored for later requests. Two concurrent first requests may both process; the
 * duplicate is harmless, the newest is served and deleting the media removes both.
 */
export async function processedVariant(db: Db, media: MediaDoc, params: ResolvedParams): Promise<Variant> {
  const name = variantName(media, params);
  const contentType = FORMAT_TYPES[params.format];
  const existing = await findVariant(db, name);
  if (existing) return { file: existing, contentType, cached: true };
  if (media.size > MAX_INPUT_BYTES) {
    throw new BadRequestError(
      `Media '${media.name}' is too large to process (${media.size} bytes; at most ${MAX_INPUT_BYTES})`,
    );
  }
  const output = await withSlot(async () => transform(await readOriginal(db, media.file_id), media, params));
  const metadata: StoredFileMeta = { bucket_id: media.bucket_id, media_id: media._id, content_type: contentType };
  const upload = mediaVariants(db).openUploadStream(name, { metadata });
  await pipeline(Readable.from([output]), upload);
  if (!upload.gridFSFile) throw new Error(`variant ${name} was not recorded`);
  return { file: upload.gridFSFile, contentType, cached: false };
}
