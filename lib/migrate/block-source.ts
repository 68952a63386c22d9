import fs from 'node:fs';
import path from 'node:path';
import { MigrationError } from '../errors/domain-errors.js';
import { HEADER_BYTES } from '../media/image-size.js';
import { resolveType } from '../media/sniff-type.js';
import type { Manifest, ObjectRecord } from './bundle-format.js';
import { BundleWriter } from './bundle-writer.js';
import { checkRecord, type BlockSource } from './record-schemas.js';

export const BLOCK_FILE = 'block.json';

async function firstBytes(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEADER_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A starter Object as a bundle record: one version, live when published. */
function starterObject(o: NonNullable<BlockSource['objects']>[number]): ObjectRecord {
  const { id, type, ...version } = o;
  return { id, type, latest: version, ...(o.status === 'draft' && { live: null }) };
}

/**
 * Builds a Block's bundle from its readable source: a folder with block.json (slug, title,
 * description, object_types as POST /object-types takes them, starter objects, media entries)
 * and the media files under media/. The bundle is checked in full when it is installed.
 */
export async function buildBlock(dir: string, file: string, gzip: boolean): Promise<Manifest> {
  const sourceFile = path.join(dir, BLOCK_FILE);
  let raw: string;
  try {
    raw = await fs.promises.readFile(sourceFile, 'utf8');
  } catch (err) {
    throw new MigrationError(`cannot read ${sourceFile}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new MigrationError(`${sourceFile} is not JSON: ${(err as Error).message}`);
  }
  const block = checkRecord('block', parsed, sourceFile);
  const mediaDir = path.join(dir, 'media');
  const writer = await BundleWriter.create();
  try {
    for (const t of block.object_types) await writer.add('object-types', t);
    for (const m of block.media ?? []) {
      // The schema allows plain file names only, so the path cannot leave media/.
      const at = path.join(mediaDir, m.file);
      const stat = await fs.promises.stat(at).catch(() => null);
      if (!stat?.isFile()) throw new MigrationError(`${sourceFile}: media file ${m.file} is not in ${mediaDir}`);
      const { file: name, ...fields } = m;
      const type = resolveType(await firstBytes(at), undefined, name);
      await writer.add('media', { name, original_name: name, type, size: stat.size, ...fields });
    }
    for (const o of block.objects ?? []) await writer.add('objects', starterObject(o));
    return await writer.finish(file, {
      source: { kind: 'block', id: `block:${block.slug}` },
      block: {
        slug: block.slug,
        title: block.title,
        ...(block.description !== undefined && { description: block.description }),
      },
      revisions: false,
      gzip,
      openMedia: (record) => Promise.resolve(fs.createReadStream(path.join(mediaDir, record.name))),
    });
  } finally {
    await writer.discard();
  }
}
