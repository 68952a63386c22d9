import type { Response } from 'express';
import { DEPTH_ADVICE, megabytes, NARROWING_ADVICE, ResponseTooLargeError } from '../errors/domain-limits.js';
import { allParams, prettyOf } from '../middleware/read-params.js';
import { RESPONSE_CAP_BYTES } from '../query/limits.js';
import { jsonBytesAtLeast } from './json-size.js';

/**
 * Serializes a read response once and refuses it with 413 when over the cap. Rendered bodies
 * share subtrees (related Objects), so the size is first bounded without writing the string;
 * the exact size is then measured on the one string that is sent, so no second copy of a large
 * body is built. Returns the text so callers can cache it.
 */
export function serializeCapped(res: Response, body: unknown): string {
  const advice = expands(res) ? DEPTH_ADVICE : NARROWING_ADVICE;
  const atLeast = jsonBytesAtLeast(body, RESPONSE_CAP_BYTES);
  if (atLeast > RESPONSE_CAP_BYTES) {
    throw new ResponseTooLargeError(
      RESPONSE_CAP_BYTES,
      `${megabytes(atLeast)} MB of JSON counted before stopping`,
      advice,
    );
  }
  const text = JSON.stringify(body, null, prettyOf(res) ? 2 : undefined);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > RESPONSE_CAP_BYTES) {
    throw new ResponseTooLargeError(RESPONSE_CAP_BYTES, `${megabytes(bytes)} MB of JSON`, advice);
  }
  return text;
}

/** Whether the read asked for relationship expansion, which is then worth advising on. */
function expands(res: Response): boolean {
  return (allParams(res).depth ?? 0) > 0;
}

export function sendText(res: Response, text: string): void {
  res.status(200).type('application/json').send(text);
}
