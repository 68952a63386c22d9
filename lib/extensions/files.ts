import type { RequestHandler } from 'express';
import type { Db } from 'mongodb';
import { NotFoundError } from '../errors/http-errors.js';
import { bucketOf } from '../middleware/load-bucket.js';
import { readArchiveRange } from './archive-store.js';
import type { ExtensionDoc } from './collection.js';
import { findExtension } from './store.js';
import type { ZipEntry } from './zip-check.js';
import { unpackEntry } from './zip-unpack.js';

/** The page an archive's `url` opens, when the archive has one at its root. */
export const INDEX_PAGE = 'index.html';

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  wasm: 'application/wasm',
};

export function contentTypeOf(name: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}

/**
 * The pages are served without credentials (a frame cannot send a token), so each is sandboxed:
 * scripts run, but in an opaque origin that cannot read this service's origin or its storage.
 */
const SANDBOX = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

function fileOf(doc: ExtensionDoc, requested: string): ZipEntry | undefined {
  const name = requested === '' || requested.endsWith('/') ? `${requested}${INDEX_PAGE}` : requested;
  return doc.archive?.files.find((f) => f.name === name);
}

/** Serves one file of an Extension's kept archive, read by its byte range and inflated if it was deflated. */
export function extensionFileHandler(db: Db): RequestHandler {
  return async (req, res) => {
    const bucket = bucketOf(res);
    const doc = await findExtension(db, bucket, String(req.params.extension_id));
    // Express 5 hands a wildcard over as its path segments.
    const raw: unknown = req.params.path;
    const requested = Array.isArray(raw) ? raw.map(String).join('/') : typeof raw === 'string' ? raw : '';
    const entry = fileOf(doc, requested);
    if (!doc.archive || !entry) {
      throw new NotFoundError(`No file '${requested}' in the archive of extension '${doc._id.toHexString()}'`);
    }
    const stored = await readArchiveRange(
      db,
      doc.archive.file_id,
      entry.dataOffset,
      entry.dataOffset + entry.compressedSize,
    );
    res
      .status(200)
      .type(contentTypeOf(entry.name))
      .set({
        'content-security-policy': SANDBOX,
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, max-age=60',
      })
      .send(await unpackEntry(stored, entry));
  };
}
