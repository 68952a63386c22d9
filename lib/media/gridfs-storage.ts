import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { ObjectId, type Db } from 'mongodb';
import type { Writable } from 'node:stream';
import type { BucketDoc } from '../db/collections.js';
import { mediaFiles } from '../db/media-collection.js';
import { FileStoreError, UploadTooLargeError } from '../errors/domain-errors.js';
import { removeOriginal } from './file-store.js';
import { HEADER_BYTES, probeImageSize } from './image-size.js';
import { cleanOriginalName, deriveMediaName } from './media-name.js';
import { resolveType } from './sniff-type.js';

/** What the storage engine adds to multer's file object once the bytes are stored. */
export interface StoredUpload {
  file_id: ObjectId;
  name: string;
  original_name: string;
  size: number;
  type: string;
  width: number | null;
  height: number | null;
}

/** Keeps a copy of the first `max` bytes; copies, so the stream's larger buffers are not retained. */
class HeadBytes {
  private readonly parts: Buffer[] = [];
  private length = 0;

  constructor(private readonly max: number) {}

  add(chunk: Buffer): void {
    if (this.length >= this.max) return;
    const part = Buffer.from(chunk.subarray(0, this.max - this.length));
    this.parts.push(part);
    this.length += part.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function settle(run: (done: (err?: Error | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    run((err) => {
      if (err) reject(new FileStoreError(err));
      else resolve();
    });
  });
}

/**
 * Multer storage engine writing straight into GridFS. The file is never held in memory: each
 * piece is written (and awaited) as it arrives, so backpressure reaches the client's socket.
 * Because every write is awaited, no write is in flight when an error is caught, and removing
 * the partial file then leaves nothing behind.
 */
export class GridFsStorage implements StorageEngine {
  constructor(
    private readonly db: Db,
    private readonly maxBytes: number,
    /** Told about an over-limit upload at once, so the 413 need not wait for the body to end. */
    private readonly onTooLarge: (req: Request, err: UploadTooLargeError) => void,
  ) {}

  _handleFile(
    req: Request,
    file: Express.Multer.File,
    cb: (error?: unknown, info?: Partial<Express.Multer.File>) => void,
  ): void {
    this.store(req, file).then(
      (info) => {
        cb(null, info);
      },
      (err: unknown) => {
        cb(err);
      },
    );
  }

  _removeFile(_req: Request, file: Express.Multer.File, cb: (error: Error | null) => void): void {
    const id = (file as Partial<StoredUpload>).file_id;
    if (!id) {
      cb(null);
      return;
    }
    removeOriginal(this.db, id).then(
      () => {
        cb(null);
      },
      (err: unknown) => {
        cb(err instanceof Error ? err : new FileStoreError(err));
      },
    );
  }

  private async store(req: Request, file: Express.Multer.File): Promise<StoredUpload> {
    const bucket = req.res?.locals.bucket as BucketDoc;
    const originalName = cleanOriginalName(file.originalname);
    const fileId = new ObjectId();
    const upload = mediaFiles(this.db).openUploadStreamWithId(fileId, originalName, {
      metadata: { bucket_id: bucket._id },
    });
    // Failures arrive through the write/end callbacks; the listener only keeps 'error' from being unhandled.
    upload.on('error', () => {});
    const head = new HeadBytes(HEADER_BYTES);
    let size = 0;
    try {
      for await (const chunk of file.stream) {
        size += (chunk as Buffer).length;
        if (size > this.maxBytes) throw new UploadTooLargeError(this.maxBytes);
        head.add(chunk as Buffer);
        await settle((done) => (upload as Writable).write(chunk, done));
      }
      await settle((done) => upload.end(done));
    } catch (err) {
      await removeOriginal(this.db, fileId).catch(() => undefined);
      if (err instanceof UploadTooLargeError) this.onTooLarge(req, err);
      throw err;
    }
    const bytes = head.bytes();
    const type = resolveType(bytes, file.mimetype, originalName);
    const dims = await probeImageSize(type, bytes);
    return {
      file_id: fileId,
      name: deriveMediaName(originalName, type),
      original_name: originalName,
      size,
      type,
      width: dims?.width ?? null,
      height: dims?.height ?? null,
    };
  }
}
