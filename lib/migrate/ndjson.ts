import { MigrationError } from '../errors/domain-errors.js';

/** A line longer than this is refused: a record is one document, and MongoDB caps documents at 16 MB. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * The lines of a byte stream, decoded as UTF-8 once whole (so a character split between chunks
 * stays whole). Memory holds one line at a time. `where` names the stream in errors.
 */
export async function* lines(stream: AsyncIterable<unknown>, where: string): AsyncGenerator<string> {
  let parts: Buffer[] = [];
  let length = 0;
  let count = 0;
  const take = (last: Buffer): string => {
    parts.push(last);
    const line = Buffer.concat(parts).toString('utf8');
    parts = [];
    length = 0;
    count++;
    return line;
  };
  for await (const piece of stream) {
    const chunk = piece as Buffer;
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      yield take(chunk.subarray(start, end));
      start = end + 1;
    }
    if (start < chunk.length) {
      // A copy: a slice would keep the whole chunk alive while the line grows.
      parts.push(Buffer.from(chunk.subarray(start)));
      length += chunk.length - start;
      if (length > MAX_LINE_BYTES)
        throw new MigrationError(`${where} line ${count + 1} is longer than ${MAX_LINE_BYTES} bytes`);
    }
  }
  if (length > 0) yield take(Buffer.alloc(0));
}

/** One JSON document per line; blank lines are skipped but counted, so positions match an editor's. */
export async function* ndjson(
  stream: AsyncIterable<unknown>,
  where: string,
): AsyncGenerator<{ line: number; value: unknown }> {
  let line = 0;
  for await (const text of lines(stream, where)) {
    line++;
    if (text.trim() === '') continue;
    try {
      yield { line, value: JSON.parse(text) as unknown };
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
      throw new MigrationError(`${where} line ${line} is not JSON: ${err.message}`);
    }
  }
}
