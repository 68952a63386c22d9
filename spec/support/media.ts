import type { Express } from 'express';
import type { Db } from 'mongodb';
import sharp from 'sharp';
import request from 'supertest';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';

/** A real image of the given size and format, with varied pixels so encoders cannot collapse it. */
export async function imageBytes(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp' | 'gif' | 'avif' = 'png',
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7 + (i >> 5)) & 0xff;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

/** `n` deterministic pseudo-random bytes (incompressible, reproducible for comparisons). */
export function randomishBytes(n: number, seed = 1): Buffer {
  const out = Buffer.alloc(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

export interface UploadOptions {
  filename?: string;
  contentType?: string;
  fields?: Record<string, string>;
  /** false: no Authorization header (the key may still go in the form). */
  header?: boolean;
}

/** A multipart upload the way the SDK sends it: the file first, then the text fields. */
export function upload(app: Express, keys: IssuedKeys, bytes: Buffer, opts: UploadOptions = {}): request.Test {
  let t = request(app).post(`/v3/buckets/${keys.slug}/media`);
  if (keys.write_key && opts.header !== false) t = t.set('Authorization', `Bearer ${keys.write_key}`);
  t = t.attach('media', bytes, {
    filename: opts.filename ?? 'file.bin',
    contentType: opts.contentType ?? 'application/octet-stream',
  });
  for (const [k, v] of Object.entries(opts.fields ?? {})) t = t.field(k, v);
  return t;
}

/** Documents in the stored-file collections of both GridFS buckets, for leak checks. */
export async function storedFileCounts(
  db: Db,
): Promise<{ files: number; chunks: number; variants: number; variantChunks: number }> {
  const count = (c: string) => db.collection(c).countDocuments();
  const [files, chunks, variants, variantChunks] = await Promise.all([
    count('media_files.files'),
    count('media_files.chunks'),
    count('media_variants.files'),
    count('media_variants.chunks'),
  ]);
  return { files, chunks, variants, variantChunks };
}

/** Polls until `check` holds or the time runs out; returns whether it held. */
export async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Creates the Bucket's media folders with these slugs (uploads and media edits name only existing ones). */
export async function declareFolders(app: Express, keys: IssuedKeys, slugs: readonly string[]): Promise<void> {
  for (const slug of slugs) {
    let t = request(app).post(`/v3/buckets/${keys.slug}/media-folders`);
    if (keys.write_key) t = t.set('Authorization', `Bearer ${keys.write_key}`);
    await t.send({ title: slug, slug }).expect(200);
  }
}
