import type { Request, RequestHandler, Response } from 'express';
import multer, { MulterError } from 'multer';
import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { DomainError, UploadTooLargeError } from '../errors/domain-errors.js';
import { BadRequestError, HttpError, UnsupportedMediaTypeError } from '../errors/http-errors.js';
import { closeAfterResponse } from '../http/close-after-response.js';
import { MEDIA_FILES_BUCKET } from '../store/media.js';
import { admitBodyKey } from '../limits/rate-limits.js';
import type { BackgroundRemover } from '../media/background-remover.js';
import { GridFsStorage, type StoredUpload } from '../media/gridfs-storage.js';

/** The form's text fields are few and small; bounding them bounds everything but the file. */
const MAX_FIELDS = 10;
const MAX_FIELD_BYTES = 256 * 1024;
/** The most a form can add to the file: every field at its limit, plus part headers. */
const FORM_ALLOWANCE = MAX_FIELDS * (MAX_FIELD_BYTES + 1024) + 16 * 1024;

function fromMulter(err: MulterError): HttpError {
  switch (err.code) {
    case 'LIMIT_UNEXPECTED_FILE':
      return new BadRequestError(
        `Unexpected file field "${err.field}": send the file in the field "media"`,
        'invalid_body',
      );
    case 'LIMIT_FILE_COUNT':
      return new BadRequestError('Send one file per upload, in the field "media"', 'invalid_body');
    case 'LIMIT_FIELD_VALUE':
      return new BadRequestError(`Form field "${err.field}" is longer than ${MAX_FIELD_BYTES} bytes`, 'invalid_body');
    case 'LIMIT_FIELD_COUNT':
    case 'LIMIT_PART_COUNT':
      return new BadRequestError(
        `The form has too many fields (at most ${MAX_FIELDS} besides the file)`,
        'invalid_body',
      );
    default:
      return new BadRequestError(`Invalid multipart form: ${err.message}`, 'invalid_body');
  }
}

/**
 * Multer and busboy report a client's malformed form as plain errors, so whatever is not ours
 * (an HTTP or domain error) or multer's is the form's fault: a 400. The file store's own
 * failures stay FileStoreErrors, which the error translator answers by their cause.
 */
function fromParser(err: unknown): unknown {
  if (err instanceof HttpError || err instanceof DomainError) return err;
  if (err instanceof MulterError) return fromMulter(err);
  const detail = err instanceof Error ? err.message : String(err);
  return new BadRequestError(`Malformed multipart/form-data body: ${detail}`, 'invalid_body');
}

/** Per-request hooks of an upload in progress. */
interface ActiveUpload {
  fileStarting(): void;
  refuse(err: HttpError | UploadTooLargeError): void;
}

/**
 * Parses a multipart upload, streaming the `media` file into GridFS (see GridFsStorage) and the
 * text fields into req.body. Over-limit uploads get 413 before the body is read when
 * Content-Length already says so, otherwise as soon as the limit is crossed. `fileStarting`
 * runs as the file part begins and may refuse it (see upload-key.ts) before anything is stored.
 */
export function mediaUpload(
  config: Config,
  db: Db,
  remover: BackgroundRemover,
  fileStarting: (req: Request, res: Response) => void,
): RequestHandler {
  const active = new WeakMap<Request, ActiveUpload>();
  const storage = new GridFsStorage(db, config.mediaMaxBytes, remover, {
    fileStarting: (req) => active.get(req)?.fileStarting(),
    refused: (req, err) => active.get(req)?.refuse(err),
  });
  const parse = multer({
    storage,
    limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: MAX_FIELDS + 1, fieldNameSize: 200 },
  }).single('media');

  return (req, res, next) => {
    if (!req.is('multipart/form-data')) {
      throw new UnsupportedMediaTypeError(
        `Content-Type must be multipart/form-data with the file in the field "media", got "${req.get('content-type') ?? 'none'}"`,
      );
    }
    const declared = Number(req.get('content-length'));
    if (Number.isFinite(declared) && declared > config.mediaMaxBytes + FORM_ALLOWANCE) {
      closeAfterResponse(res);
      throw new UploadTooLargeError(config.mediaMaxBytes);
    }
    let settled = false;
    const finish = (err?: unknown) => {
      if (settled) return;
      settled = true;
      active.delete(req);
      if (err !== undefined && err !== null) {
        next(fromParser(err));
        return;
      }
      // A write_key field counts against the key's budget; a refused upload's file is not kept.
      admitBodyKey(req, res).then(
        () => {
          removeUnlessTaken(req, res, remover);
          next();
        },
        (refused: unknown) => {
          const stored = storedUpload(req);
          if (stored) remover.remove(MEDIA_FILES_BUCKET, [stored.file_id]);
          next(refused);
        },
      );
    };
    active.set(req, {
      fileStarting: () => {
        fileStarting(req, res);
      },
      refuse: (err) => {
        closeAfterResponse(res);
        finish(err);
      },
    });
    parse(req, res, finish);
  };
}

/**
 * Once the answer is sent, the parsed upload's file is removed unless a record took it
 * (`uploadTaken`): a request refused after the form was read (the key check, a bad field, a failed
 * write) leaves no unrecorded bytes behind, whichever handler refused it.
 */
function removeUnlessTaken(req: Request, res: Response, remover: BackgroundRemover): void {
  const stored = storedUpload(req);
  if (!stored) return;
  res.once('close', () => {
    if (res.locals.uploadTaken !== true) remover.remove(MEDIA_FILES_BUCKET, [stored.file_id]);
  });
}

/** Says that a record now holds the parsed upload's file, so it is kept. */
export function uploadTaken(res: Response): void {
  res.locals.uploadTaken = true;
}

/** Multer merges what the storage engine reported (GridFsStorage: a StoredUpload) into the file. */
function isStoredUpload(file: Express.Multer.File): file is Express.Multer.File & StoredUpload {
  return 'file_id' in file;
}

/** The stored file of a parsed upload, if the form had one. */
export function storedUpload(req: Request): StoredUpload | undefined {
  return req.file && isStoredUpload(req.file) ? req.file : undefined;
}
