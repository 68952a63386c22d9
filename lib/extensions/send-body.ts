import type { Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The same bytes, once the first of them has been read. A failure before that (a damaged
 * archive, an unreachable database) is thrown while nothing has been sent, so the error handler
 * still answers with a status and a body.
 */
export async function openBody(chunks: AsyncGenerator<Buffer>): Promise<AsyncGenerator<Buffer>> {
  const first = await chunks.next();
  return (async function* () {
    if (first.done === true) return;
    yield first.value;
    yield* chunks;
  })();
}

/**
 * Sends an opened body with backpressure: the next chunk is read only when the client has taken
 * the last, so a slow client holds a few chunks, not the file. Once bytes have gone out a
 * failure can only cut the connection, which the client sees as a short body; a client that
 * goes away stops the reading.
 */
export async function pipeBody(res: Response, body: AsyncGenerator<Buffer>): Promise<void> {
  try {
    await pipeline(Readable.from(body, { objectMode: false }), res);
  } catch {
    res.destroy();
  }
}
