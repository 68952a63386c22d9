import type { Db, GridFSFile, ObjectId } from 'mongodb';
import sharp from 'sharp';
import { mediaFiles, type MediaDoc } from '../store/media.js';
import { BadRequestError, HttpError } from '../errors/http-errors.js';
import { retryLater } from '../errors/retry-later.js';
import {
  BUSY_RETRY_AFTER_SECONDS,
  checkOutputSize,
  encoderOptions,
  MAX_QUEUE_WAIT_MS,
  MAX_STORED_VARIANTS_PER_IMAGE,
  outputSize,
  QUEUE_PER_SLOT,
  type Size,
} from './imgproc-limits.js';
import { FORMAT_TYPES, variantKey, type ResolvedParams } from './imgproc-params.js';
import { SaturatedError, Semaphore } from '../util/semaphore.js';
import type { VariantStore } from './variant-store.js';

/** Originals above this are not decoded: the processor holds its input in memory. */
export const MAX_INPUT_BYTES = 50 * 1024 * 1024;
/** Decoded pixels allowed per input (about 8000 x 6000); guards against decompression bombs. */
export const MAX_INPUT_PIXELS = 50_000_000;

/** A processed image: a stored variant (`cached` false when this request made it), or bytes not kept. */
export type Variant =
  | { kind: 'stored'; file: GridFSFile; contentType: string; cached: boolean }
  | { kind: 'unstored'; bytes: Buffer; contentType: string };

/** Variants are named by the original's file id, so a re-upload can never be served a stale one. */
function variantName(media: MediaDoc, params: ResolvedParams): string {
  return `${media.file_id.toHexString()}/${variantKey(params)}`;
}

async function readOriginal(db: Db, fileId: ObjectId): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of mediaFiles(db).openDownloadStream(fileId)) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/**
 * The request alone can prove the output too large when the recorded size is known. Which way
 * up the image is (EXIF orientation) is unknown before decoding, so the smaller outcome decides.
 */
function precheckOutputSize(media: MediaDoc, params: ResolvedParams): void {
  if (media.width === null || media.height === null) return;
  const pixels = (s: Size) => {
    const out = outputSize(s, params);
    return out.width * out.height;
  };
  const asRecorded = { width: media.width, height: media.height };
  const turned = { width: media.height, height: media.width };
  checkOutputSize(pixels(asRecorded) <= pixels(turned) ? asRecorded : turned, params, media.name);
}

/** The image transformed as asked. Bad or over-large images are the request's problem: 400. */
async function transform(input: Buffer, media: MediaDoc, params: ResolvedParams): Promise<Buffer> {
  try {
    const options = { limitInputPixels: MAX_INPUT_PIXELS, animated: false };
    const { autoOrient } = await sharp(input, options).metadata();
    checkOutputSize(autoOrient, params, media.name);
    // rotate() applies EXIF orientation, so the output is upright and w/h mean what the viewer sees.
    const image = sharp(input, options).rotate();
    if (params.width || params.height) image.resize({ width: params.width, height: params.height, fit: params.fit });
    return await image.toFormat(params.format, encoderOptions(params.format, params.quality)).toBuffer();
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const detail = err instanceof Error ? err.message.split('\n')[0] : 'unreadable image';
    throw new BadRequestError(`Media '${media.name}' could not be processed as an image: ${detail}`);
  }
}

/**
 * Makes processed images, a bounded number at a time (one instance per app: the slots are this
 * process's CPU). A stored variant is served without any processing; a new one is made and
 * stored unless its image already has the most variants kept, or it alone exceeds the Bucket's
 * budget, in which case it is served without being kept. Two concurrent first requests may both
 * process; the duplicate is harmless, the newest is served and deleting the media removes both.
 */
export class ImageProcessor {
  private readonly slots: Semaphore;

  constructor(
    private readonly db: Db,
    private readonly store: VariantStore,
    concurrency: number,
  ) {
    this.slots = new Semaphore({
      concurrent: concurrency,
      waiting: concurrency * QUEUE_PER_SLOT,
      maxWaitMs: MAX_QUEUE_WAIT_MS,
    });
  }

  async variant(media: MediaDoc, params: ResolvedParams): Promise<Variant> {
    const name = variantName(media, params);
    const contentType = FORMAT_TYPES[params.format];
    const existing = await this.store.find(name);
    if (existing) {
      await this.store.touch(existing);
      return { kind: 'stored', file: existing, contentType, cached: true };
    }
    if (media.size > MAX_INPUT_BYTES) {
      throw new BadRequestError(
        `Media '${media.name}' is too large to process (${media.size} bytes; at most ${MAX_INPUT_BYTES})`,
      );
    }
    precheckOutputSize(media, params);
    const bytes = await this.inSlot(async () => transform(await readOriginal(this.db, media.file_id), media, params));
    const keep =
      this.store.fits(bytes.length) && (await this.store.countFor(media._id)) < MAX_STORED_VARIANTS_PER_IMAGE;
    if (!keep) return { kind: 'unstored', bytes, contentType };
    const file = await this.store.store(name, bytes, {
      bucket_id: media.bucket_id,
      media_id: media._id,
      content_type: contentType,
    });
    return { kind: 'stored', file, contentType, cached: false };
  }

  private async inSlot<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.slots.run(work);
    } catch (err) {
      if (!(err instanceof SaturatedError)) throw err;
      throw retryLater(
        503,
        `Image processing is at capacity (${err.reason}); retry in ${BUSY_RETRY_AFTER_SECONDS} s`,
        'service_unavailable',
        BUSY_RETRY_AFTER_SECONDS,
      );
    }
  }
}
