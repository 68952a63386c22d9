import type { Request, Response } from 'express';
import type { GridFSBucket, ObjectId } from 'mongodb';
import { pipeline } from 'node:stream/promises';
import { RangeNotSatisfiableError } from '../errors/domain-errors.js';
import { etagMatches, parseRange } from './range.js';

export interface StoredFile {
  id: ObjectId;
  length: number;
  contentType: string;
  etag: string;
}

/**
 * How long caches keep a file without asking again. Not forever: a media item's file can be
 * replaced under the same URL (PUT /media/:id/file), so both of its URLs change bytes; after this
 * a cache revalidates with the ETag (the stored file's id), a 304 while the file is unchanged.
 */
export const FILE_CACHE_CONTROL = 'public, max-age=300';

/** What every served file carries. */
function setFileHeaders(res: Response, contentType: string): void {
  res.set({
    'Content-Type': contentType,
    'Cache-Control': FILE_CACHE_CONTROL,
    // Uploaded HTML or SVG must not run as a page of this origin, nor be re-typed by browsers.
    'Content-Security-Policy': 'sandbox',
    'X-Content-Type-Options': 'nosniff',
  });
}

/** Bytes already in memory, whole (ranges are ignored, which HTTP allows), with the file headers. */
export function sendBytes(req: Request, res: Response, bytes: Buffer, contentType: string): void {
  setFileHeaders(res, contentType);
  res.status(200).set('Content-Length', String(bytes.length));
  if (req.method === 'HEAD') res.end();
  else res.end(bytes);
}

/**
 * Streams a GridFS file as an HTTP response with caching and range support. Stored files never
 * change (a new upload gets a new name), so they are cacheable for a year and the ETag is
 * their id. Errors before the first byte go to the error handler; after it, the connection is
 * cut, since the status line has already been sent.
 */
export async function sendStoredFile(
  req: Request,
  res: Response,
  store: GridFSBucket,
  file: StoredFile,
): Promise<void> {
  const ifRange = req.get('if-range');
  const range = ifRange === undefined || ifRange === file.etag ? parseRange(req.get('range'), file.length) : null;
  const notModified = etagMatches(req.get('if-none-match'), file.etag);
  if (range === 'unsatisfiable' && !notModified) {
    throw new RangeNotSatisfiableError(req.get('range') ?? '', file.length);
  }
  setFileHeaders(res, file.contentType);
  res.set({ ETag: file.etag, 'Accept-Ranges': 'bytes' });
  if (notModified || range === 'unsatisfiable') {
    res.status(304).end();
    return;
  }
  const start = range ? range.start : 0;
  const end = range ? range.end : file.length - 1;
  res.status(range ? 206 : 200);
  if (range) res.set('Content-Range', `bytes ${start}-${end}/${file.length}`);
  res.set('Content-Length', String(Math.max(0, end - start + 1)));
  if (req.method === 'HEAD' || file.length === 0) {
    res.end();
    return;
  }
  // The driver's `end` is exclusive.
  const download = store.openDownloadStream(file.id, { start, end: end + 1 });
  try {
    await pipeline(download, res);
  } catch {
    // Usually the client went away; either way the response cannot be repaired now.
    res.destroy();
  }
}
