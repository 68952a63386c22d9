import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { MigrationError } from '../errors/domain-errors.js';

export interface RemoteOptions {
  /** The API's base address, with or without the /v3 path. */
  from: string;
  bucket: string;
  readKey: string;
  /** With it, reads see drafts (status=any) as well. */
  writeKey?: string | undefined;
}

type Json = Record<string, unknown>;

/**
 * A v3 content API reached through its public routes only, as any client would: this service,
 * another instance of it, or the hosted original.
 */
export class RemoteApi {
  readonly base: string;

  constructor(private readonly opts: RemoteOptions) {
    const trimmed = opts.from.replace(/\/+$/, '');
    this.base = trimmed.endsWith('/v3') ? trimmed : `${trimmed}/v3`;
    try {
      new URL(this.base);
    } catch {
      throw new MigrationError(`--from ${JSON.stringify(opts.from)} is not an absolute http(s) URL`);
    }
  }

  /** GET of a Bucket route; `missingIsEmpty`: a 404 is the list's "nothing matched", answered as null. */
  async get(path: string, params: Record<string, string> = {}, missingIsEmpty = false): Promise<Json | null> {
    const url = new URL(`${this.base}/buckets/${encodeURIComponent(this.opts.bucket)}${path}`);
    for (const [k, v] of Object.entries({ ...params, read_key: this.opts.readKey })) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.opts.writeKey) headers.authorization = `Bearer ${this.opts.writeKey}`;
    let res: Response;
    try {
      res = await fetch(url, { headers });
    } catch (err) {
      throw new MigrationError(`GET ${this.redacted(url)} failed: ${(err as Error).message}`);
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new MigrationError(`GET ${this.redacted(url)} answered ${res.status} with a body that is not JSON`);
    }
    if (res.status === 404 && missingIsEmpty) return null;
    if (res.status !== 200 || typeof body !== 'object' || body === null || Array.isArray(body)) {
      const message = (body as { message?: unknown } | null)?.message;
      throw new MigrationError(
        `GET ${this.redacted(url)} answered ${res.status}${typeof message === 'string' ? `: ${message}` : ''}`,
      );
    }
    return body as Json;
  }

  /** Downloads a file URL the API answered to `file`; returns its size. */
  async download(url: string, file: string): Promise<number> {
    let res: Response;
    try {
      res = await fetch(url);
    } catch (err) {
      throw new MigrationError(`downloading ${url} failed: ${(err as Error).message}`);
    }
    if (res.status !== 200 || !res.body) throw new MigrationError(`downloading ${url} answered ${res.status}`);
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), fs.createWriteStream(file));
    return (await fs.promises.stat(file)).size;
  }

  /** The URL without its keys, for messages. */
  private redacted(url: URL): string {
    const copy = new URL(url);
    if (copy.searchParams.has('read_key')) copy.searchParams.set('read_key', '…');
    return copy.toString();
  }
}
