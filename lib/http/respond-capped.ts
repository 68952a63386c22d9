import type { Response } from 'express';
import { megabytes, readLimitAdvice, ReadLimitError, ResponseTooLargeError } from '../errors/domain-limits.js';
import { PayloadTooLargeError } from '../errors/http-errors.js';
import { allParams, declaredParams, prettyOf } from './request.js';
import { RESPONSE_CAP_BYTES } from '../query/limits.js';
import { jsonBytesAtLeast } from './json-size.js';

/**
 * The 413 for a read that ran into a limit, advising only what this route takes: its declared
 * parameters (read-params.ts), and depth first when the read expanded relationships.
 */
export function readLimitAnswer(res: Response, err: ReadLimitError): PayloadTooLargeError {
  const expanding = (allParams(res).depth ?? 0) > 0;
  const advice = readLimitAdvice(new Set(declaredParams(res)), expanding);
  return new PayloadTooLargeError(`${err.problem}: ${advice}`, 'response_too_large');
}

/**
 * Serializes a read response once and refuses it with 413 when over the cap. Rendered bodies
 * share subtrees (related Objects), so the size is first bounded without writing the string;
 * the exact size is then measured on the one string that is sent, so no second copy of a large
 * body is built. Returns the text so callers can cache it.
 */
export function serializeCapped(res: Response, body: unknown): string {
  const atLeast = jsonBytesAtLeast(body, RESPONSE_CAP_BYTES);
  if (atLeast > RESPONSE_CAP_BYTES) {
    const measure = `${megabytes(atLeast)} MB of JSON counted before stopping`;
    throw readLimitAnswer(res, new ResponseTooLargeError(RESPONSE_CAP_BYTES, measure));
  }
  const text = JSON.stringify(body, null, prettyOf(res) ? 2 : undefined);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > RESPONSE_CAP_BYTES) {
    throw readLimitAnswer(res, new ResponseTooLargeError(RESPONSE_CAP_BYTES, `${megabytes(bytes)} MB of JSON`));
  }
  return text;
}

export function sendText(res: Response, text: string): void {
  res.status(200).type('application/json').send(text);
}
