import type { RequestHandler } from 'express';
import type { Db } from 'mongodb';
import { RangeNotSatisfiableError } from '../errors/domain-errors.js';
import { NotFoundError } from '../errors/http-errors.js';
import { etagMatches, parseRange } from '../media/range.js';
import { bucketOf } from '../http/request.js';
import { readArchive } from './archive-store.js';
import type { ExtensionDoc } from '../store/extensions.js';
import { openBody, pipeBody } from './send-body.js';
import { findExtension } from './store.js';
import type { ZipEntry } from '../store/zip-check.js';
import { entryBytes } from './zip-unpack.js';

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

/**
 * Serves one file of an Extension's kept archive, streamed: a stored entry is read for its byte
 * range, a deflated one inflated as the client takes it, so memory per request stays a few
 * chunks however large the file. A single byte range is honoured (a deflated entry is inflated
 * from its start up to the range's end). The ETag is the archive's id and the entry's CRC-32:
 * a kept archive never changes.
 */
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
    const fileId = doc.archive.file_id;
    const etag = `"${fileId.toHexString()}-${entry.crc32.toString(16)}"`;
    const ifRange = req.get('if-range');
    const range = ifRange === undefined || ifRange === etag ? parseRange(req.get('range'), entry.size) : null;
    const notModified = etagMatches(req.get('if-none-match'), etag);
    if (range === 'unsatisfiable' && !notModified) {
      throw new RangeNotSatisfiableError(req.get('range') ?? '', entry.size);
    }
    const slice = range === 'unsatisfiable' ? null : range;
    const sendsBody = !notModified && req.method !== 'HEAD' && entry.size > 0;
    const read = (start: number, end: number) => readArchive(db, fileId, start, end);
    const body = sendsBody ? await openBody(entryBytes(read, entry, slice)) : null;
    res.type(contentTypeOf(entry.name)).set({
      'content-security-policy': SANDBOX,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=60',
      etag,
      'accept-ranges': 'bytes',
    });
    if (notModified) {
      res.status(304).end();
      return;
    }
    res.status(slice ? 206 : 200).set('content-length', String(slice ? slice.end - slice.start + 1 : entry.size));
    if (slice) res.set('content-range', `bytes ${slice.start}-${slice.end}/${entry.size}`);
    if (body) await pipeBody(res, body);
    else res.end();
  };
}
