import type { Express } from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const BOUNDARY = 'raw-upload-boundary';
export const PART_TAIL = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/** The opening of the form's file part; the file's bytes follow. */
export function filePartHead(filename = 'big.bin'): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="media"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
}

/** A whole text part, to put before the file part (or after it, following a CRLF). */
export function fieldPart(name: string, value: string): Buffer {
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
}

/** A whole form: text fields as [name, value], the file as its bytes, in the order given. */
export function formBody(parts: ReadonlyArray<readonly [string, string] | Buffer>): Buffer {
  const pieces = parts.map((p) =>
    Buffer.isBuffer(p) ? Buffer.concat([filePartHead(), p, Buffer.from('\r\n')]) : fieldPart(p[0], p[1]),
  );
  return Buffer.concat([...pieces, Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/**
 * Starts a raw POST whose body the caller writes. Raw because the point is what the server does
 * while the body is still arriving, which client libraries that buffer or retry would hide.
 */
export function startPost(port: number, path: string, headers: Record<string, string | number>) {
  const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers });
  // Once the server has answered and closed, further writes fail; that is expected here.
  req.on('error', () => undefined);
  const answer = new Promise<Answer>((resolve) => {
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: JSON.parse(Buffer.concat(parts).toString() || '{}'),
        });
      });
    });
  });
  return { req, answer };
}

/** Starts a raw multipart upload (see startPost). */
export function startUpload(port: number, path: string, headers: Record<string, string | number>) {
  return startPost(port, path, { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers });
}

export interface Listening {
  port: number;
  close(): Promise<void>;
}

/** The app on a loopback port, for raw uploads. */
export async function listen(app: Express): Promise<Listening> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
