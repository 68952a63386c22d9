import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import zlib from 'node:zlib';

// The memory assertions compare live buffers, not garbage, so they collect first. The flag is
// set at run time so the suite needs no extra node option.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** Bytes held by live Buffers and ArrayBuffers in this process (the server runs in it too). */
export function liveBufferBytes(): number {
  collect();
  return process.memoryUsage().arrayBuffers;
}

/**
 * Live buffer bytes once they stop falling: garbage is not always gone the moment a collection
 * returns (buffers are freed behind it, sockets close a few turns later), while what a request
 * holds stays held however long it is measured.
 */
export async function settledBufferBytes(): Promise<number> {
  let last = liveBufferBytes();
  for (let round = 0; round < 50; round++) {
    await letRun(20);
    const now = liveBufferBytes();
    if (now > last - 64 * 1024) return Math.min(now, last);
    last = now;
  }
  return last;
}

export interface PausedRead {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Body bytes received; each chunk is counted and checksummed, never kept. */
  length: number;
  crc32: number;
  /** Whether the body arrived as framed (false when the server cut the connection). */
  complete: boolean;
  /** What `atHalf` answered, or null when the body never reached half of `expected` bytes. */
  atHalf: number | null;
}

/**
 * GETs `path` from a server on `port` like a slow client: once half of `expected` body bytes
 * have arrived it stops reading (the server meets backpressure), awaits `atHalf`, then reads on
 * to the end. Resolves when the response is over, whether it completed or was cut.
 */
export function pausedRead(
  port: number,
  path: string,
  expected: number,
  atHalf: () => Promise<number>,
  headers: http.OutgoingHttpHeaders = {},
): Promise<PausedRead> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      answered = true;
      const read: PausedRead = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        length: 0,
        crc32: 0,
        complete: false,
        atHalf: null,
      };
      let paused = false;
      res.on('data', (chunk: Buffer) => {
        read.length += chunk.length;
        read.crc32 = zlib.crc32(chunk, read.crc32);
        if (paused || read.length < expected / 2) return;
        paused = true;
        res.pause();
        atHalf().then(
          (value) => {
            read.atHalf = value;
            res.resume();
          },
          (err: unknown) => {
            req.destroy();
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      });
      res.on('close', () => {
        read.complete = res.complete;
        resolve(read);
      });
    });
    req.on('error', (err) => {
      // Once answered, a cut connection is an outcome the caller asserts on; 'close' resolves it.
      if (!answered) reject(err);
    });
  });
}

/** Lets the event loop run `turns` times: the server writes on until its buffers are full. */
export async function letRun(turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
