import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import type { Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { MEDIA_FILES_BUCKET } from '../store/media.js';
import type { UploadTooLargeError } from '../errors/domain-errors.js';
import { HttpError } from '../errors/http-errors.js';
import type { BackgroundRemover } from './background-remover.js';
import { storeStream, type StoredUpload } from './store-stream.js';

/** What the storage engine adds to multer's file object once the bytes are stored. */
export type { StoredUpload };

/** What the upload middleware learns from the storage engine, and may veto, per request. */
export interface StorageEvents {
  /** Called as the file part begins, before anything is stored; throwing refuses the upload. */
  fileStarting(req: Request): void;
  /**
   * Told about a refusal (an over-limit file, a vetoed start) synchronously, before the file
   * stream is torn down, so the client's answer is this error and not the abort that follows.
   */
  refused(req: Request, err: HttpError | UploadTooLargeError): void;
}

/**
 * Multer storage engine writing straight into GridFS through storeStream: the file is never held
 * in memory, and backpressure reaches the client's socket.
 */
export class GridFsStorage implements StorageEngine {
  constructor(
    private readonly db: Db,
    private readonly maxBytes: number,
    private readonly remover: BackgroundRemover,
    private readonly events: StorageEvents,
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
    if (id) this.remover.remove(MEDIA_FILES_BUCKET, [id]);
    cb(null);
  }

  /** Runs the start check, reporting a refusal before the stream is abandoned. */
  private mayStart(req: Request): void {
    try {
      this.events.fileStarting(req);
    } catch (err) {
      if (err instanceof HttpError) this.events.refused(req, err);
      throw err;
    }
  }

  private async store(req: Request, file: Express.Multer.File): Promise<StoredUpload> {
    const bucket = req.res?.locals.bucket as BucketDoc;
    this.mayStart(req);
    return storeStream(this.db, file.stream, {
      bucketId: bucket._id,
      originalName: file.originalname,
      claimedType: file.mimetype,
      maxBytes: this.maxBytes,
      // Reported before the throw: leaving the loop destroys the file stream, and multer would
      // otherwise answer with that abort (a 400) once the rest of the body drained.
      onTooLarge: (err) => {
        this.events.refused(req, err);
      },
      discard: (fileId) => {
        this.remover.remove(MEDIA_FILES_BUCKET, [fileId]);
      },
    });
  }
}
