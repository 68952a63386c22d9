import type { AvifOptions, GifOptions, JpegOptions, PngOptions, WebpOptions } from 'sharp';
import { BadRequestError } from '../errors/http-errors.js';
import type { OutputFormat, ResolvedParams } from './imgproc-params.js';

/**
 * Every bound on image processing in one place. Public image URLs take no key, so these are
 * what stands between an anonymous client and the server's CPU and the database's disk.
 */

/** Pixels one processed image may have (4000 x 4000): caps encoder time and memory per request. */
export const MAX_OUTPUT_PIXELS = 16_000_000;
/**
 * Processed images kept per media item. Past it, new variants are made and served but not
 * stored, so endless w/h/q combinations cost CPU (bounded by the semaphore) but no storage.
 */
export const MAX_STORED_VARIANTS_PER_IMAGE = 20;
/** Requests waiting for a processing slot, per slot, and how long they wait before a 503. */
export const QUEUE_PER_SLOT = 4;
export const MAX_QUEUE_WAIT_MS = 10_000;
/** What a 503 for a full queue tells the client to wait. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

export interface Size {
  width: number;
  height: number;
}

/** The size sharp's resize will produce for an upright input of `input` pixels. */
export function outputSize(input: Size, params: ResolvedParams): Size {
  const { width, height } = params;
  const scaled = (s: number): Size => ({
    width: Math.max(1, Math.round(input.width * s)),
    height: Math.max(1, Math.round(input.height * s)),
  });
  if (width !== undefined && height !== undefined) {
    if (params.fit === 'inside') return scaled(Math.min(width / input.width, height / input.height));
    if (params.fit === 'outside') return scaled(Math.max(width / input.width, height / input.height));
    return { width, height };
  }
  if (width !== undefined) return scaled(width / input.width);
  if (height !== undefined) return scaled(height / input.height);
  return input;
}

/** 400 naming the limit when the processed image would be too large. */
export function checkOutputSize(input: Size, params: ResolvedParams, mediaName: string): void {
  const out = outputSize(input, params);
  if (out.width * out.height <= MAX_OUTPUT_PIXELS) return;
  throw new BadRequestError(
    `Media '${mediaName}' would be processed to ${out.width}x${out.height} pixels; at most ${MAX_OUTPUT_PIXELS} pixels ` +
      `(for example 4000x4000) can be produced: ask for a smaller w or h`,
    'invalid_parameter',
  );
}

type EncoderOptions = JpegOptions | PngOptions | WebpOptions | AvifOptions | GifOptions;

/**
 * Encoder settings chosen for bounded CPU. At their defaults a 4000x4000 AVIF took about 56 s of
 * CPU (effort 4, 4:4:4) and a GIF 8 s; these settings bring the worst case to a few seconds at
 * the cost of somewhat larger files. `quality` only where the format has one.
 */
export function encoderOptions(format: OutputFormat, quality: number | undefined): EncoderOptions {
  const q = quality === undefined ? {} : { quality };
  switch (format) {
    case 'avif':
      return { ...q, effort: 0, chromaSubsampling: '4:2:0' };
    case 'webp':
      return { ...q, effort: 2 };
    case 'gif':
      return { effort: 1 };
    case 'png':
      return {};
    case 'jpeg':
      return q;
  }
}
