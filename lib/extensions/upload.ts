import type { RequestHandler } from 'express';
import multer, { MulterError } from 'multer';
import { BadRequestError, HttpError } from '../errors/http-errors.js';
import { closeAfterResponse } from '../http/close-after-response.js';
import { jsonBody } from '../http/json-body.js';

/** The form's text fields (title, image_url, font_awesome_class, write_key) are few and short. */
const MAX_FIELDS = 8;
const MAX_FIELD_BYTES = 8 * 1024;
const FORM_ALLOWANCE = MAX_FIELDS * (MAX_FIELD_BYTES + 1024) + 16 * 1024;

function fromMulter(err: MulterError, maxBytes: number): HttpError {
  if (err.code === 'LIMIT_FILE_SIZE') {
    return new BadRequestError(
      `The extension archive was refused: it is over the ${maxBytes}-byte cap`,
      'extension_zip_invalid',
    );
  }
  if (err.code === 'LIMIT_UNEXPECTED_FILE' || err.code === 'LIMIT_FILE_COUNT') {
    return new BadRequestError('Send one archive, in the file field "zip"', 'invalid_body');
  }
  return new BadRequestError(`Invalid multipart form: ${err.message}`, 'invalid_body');
}

/**
 * The body of POST .../extensions: a multipart form with the archive in `zip`, held in memory
 * up to the archive cap (it is checked whole before it is kept), or a JSON body. It runs after
 * the account check, so no body is read for a caller who may not install.
 */
export function extensionBody(maxBytes: number, jsonLimit: string): RequestHandler {
  const json = jsonBody(jsonLimit);
  const form = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxBytes, files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, fieldNameSize: 100 },
  }).single('zip');
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) {
      json(req, res, next);
      return;
    }
    const declared = Number(req.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes + FORM_ALLOWANCE) {
      closeAfterResponse(res);
      throw new BadRequestError(
        `The extension archive was refused: the form is ${declared} bytes, over the ${maxBytes}-byte cap`,
        'extension_zip_invalid',
      );
    }
    form(req, res, (err?: unknown) => {
      if (err === undefined || err === null) next();
      else if (err instanceof MulterError) next(fromMulter(err, maxBytes));
      else if (err instanceof HttpError) next(err);
      else {
        const detail = err instanceof Error ? err.message : 'unreadable form';
        next(new BadRequestError(`Malformed multipart/form-data body: ${detail}`, 'invalid_body'));
      }
    });
  };
}
