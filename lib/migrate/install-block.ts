import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ObjectWriteDeps } from '../objects/write/object-writes.js';
import { buildBlock } from './block-source.js';
import { importBundle, type ImportOptions, type ImportSummary } from './import.js';

/**
 * Installs a Block into a Bucket that exists: its Object types, starter Objects and media beside
 * what the Bucket holds, then records it (GET /blocks lists it). `source` is a Block bundle, or a
 * Block's readable source folder, built into a bundle first.
 */
export async function installBlock(
  deps: ObjectWriteDeps,
  slug: string,
  source: string,
  opts: Omit<ImportOptions, 'block'>,
): Promise<ImportSummary> {
  const stat = await fs.promises.stat(source).catch(() => null);
  if (!stat?.isDirectory()) return importBundle(deps, slug, source, { ...opts, block: true });
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'block-'));
  try {
    const bundle = path.join(dir, 'block.tar');
    await buildBlock(source, bundle, false);
    return await importBundle(deps, slug, bundle, { ...opts, block: true });
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
