import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { extract, pack } from 'tar-stream';
import { MANIFEST_ENTRY } from '../../lib/migrate/bundle-format.js';
import type { MediaRecord, ObjectRecord, RevisionRecord, WebhookRecord } from '../../lib/migrate/bundle-format.js';
import { BundleWriter } from '../../lib/migrate/bundle-writer.js';

export interface BundleContent {
  types?: Record<string, unknown>[];
  media?: { record: MediaRecord; bytes: Buffer }[];
  objects?: ObjectRecord[];
  revisions?: RevisionRecord[];
  webhooks?: WebhookRecord[];
  sourceId?: string;
}

/** A bundle written from records, as a test states them: good ones and deliberately bad ones. */
export async function writeTestBundle(file: string, content: BundleContent): Promise<void> {
  const writer = await BundleWriter.create();
  try {
    for (const t of content.types ?? []) await writer.add('object-types', t);
    for (const m of content.media ?? []) await writer.add('media', m.record);
    for (const o of content.objects ?? []) await writer.add('objects', o);
    for (const r of content.revisions ?? []) await writer.add('revisions', r);
    for (const w of content.webhooks ?? []) await writer.add('webhooks', w);
    const bytes = new Map((content.media ?? []).map((m) => [m.record.name, m.bytes]));
    await writer.finish(file, {
      source: { kind: 'export', id: content.sourceId ?? 'test-source' },
      revisions: (content.revisions ?? []).length > 0,
      gzip: false,
      openMedia: (record) => Promise.resolve([bytes.get(record.name) ?? Buffer.alloc(0)]),
    });
  } finally {
    await writer.discard();
  }
}

/**
 * `from` written again to `to` with one more entry, `name`, of `bytes` random bytes (which no
 * gzip can shrink) right after the manifest, where every pass that reads from the start meets it:
 * an entry the bundle format does not know, which readers pass over.
 */
export async function withIgnoredEntry(
  from: string,
  to: string,
  { name, bytes, gzip }: { name: string; bytes: number; gzip: boolean },
): Promise<void> {
  const out = pack();
  const file = fs.createWriteStream(to);
  const written = gzip ? pipeline(out, zlib.createGzip({ level: 1 }), file) : pipeline(out, file);
  const entries = extract();
  const reading = pipeline(fs.createReadStream(from), entries);
  for await (const entry of entries) {
    const parts: Buffer[] = [];
    for await (const chunk of entry) parts.push(chunk as Buffer);
    await new Promise<void>((resolve, reject) => {
      out.entry(entry.header, Buffer.concat(parts), settle(resolve, reject));
    });
    if (entry.header.name !== MANIFEST_ENTRY) continue;
    const ignored = out.entry({ name, size: bytes });
    const block = crypto.randomBytes(1024 * 1024);
    for (let left = bytes; left > 0; left -= block.length) {
      if (!ignored.write(block.subarray(0, Math.min(left, block.length)))) await once(ignored, 'drain');
    }
    await new Promise<void>((resolve, reject) => {
      ignored.end(settle(resolve, reject));
    });
  }
  await reading;
  out.finalize();
  await written;
}

function settle(resolve: () => void, reject: (err: Error) => void): (err?: Error | null) => void {
  return (err) => {
    if (err) reject(err);
    else resolve();
  };
}
