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
