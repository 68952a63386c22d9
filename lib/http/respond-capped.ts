import type { Response } from 'express';
import { PayloadTooLargeError } from '../errors/http-errors.js';
import { prettyOf } from '../middleware/read-params.js';

/** The spec's cap on read responses ("about 6 MB"). */
export const RESPONSE_CAP_BYTES = 6 * 1024 * 1024;

export function tooLarge(bytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(
    `The response would be ${(bytes / 1024 / 1024).toFixed(1)} MB, over the 6 MB limit: lower limit, narrow props, or paginate with skip or after`,
  );
}

/**
 * Serializes a read response once and refuses it with 413 when over the cap. The size is
 * measured on the one string that is then sent, so no second copy of a large body is built.
 * Returns the text so callers can cache it.
 */
export function serializeCapped(res: Response, body: unknown): string {
  const text = JSON.stringify(body, null, prettyOf(res) ? 2 : undefined);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > RESPONSE_CAP_BYTES) throw tooLarge(bytes);
  return text;
}

export function sendText(res: Response, text: string): void {
  res.status(200).type('application/json').send(text);
}
