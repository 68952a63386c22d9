import type { Response } from 'express';

function byteLengthOf(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string') {
    return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  }
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}

/** What a response has written of its body so far. */
export interface BodyCounter {
  bytes: number;
}

/**
 * Counts the body bytes a response writes, however it writes them (res.send, a piped GridFS
 * stream, res.end with bytes). A header such as Content-Length would not do: streamed answers
 * may have none, a HEAD answer has one without a body, and a cut-off download sends fewer.
 */
export function countBodyBytes(res: Response): BodyCounter {
  const counter = { bytes: 0 };
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
    counter.bytes += byteLengthOf(chunk, rest[0]);
    return Reflect.apply(write, res, [chunk, ...rest]) as boolean;
  }) as Response['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]): Response => {
    counter.bytes += byteLengthOf(chunk, rest[0]);
    return Reflect.apply(end, res, [chunk, ...rest]) as Response;
  }) as Response['end'];
  return counter;
}
