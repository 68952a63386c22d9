import { HttpError } from './http-errors.js';

/** The fields body-parser (behind express.json()) sets on the errors it raises. */
interface BodyParserError {
  type: string;
  message: string;
  limit?: unknown;
  charset?: unknown;
  encoding?: unknown;
}

function isBodyParserError(err: unknown): err is BodyParserError {
  return err instanceof Error && typeof (err as Partial<BodyParserError>).type === 'string';
}

/** Errors raised by express.json() before any route runs; null for any other error. */
export function fromBodyParser(err: unknown): HttpError | null {
  if (!isBodyParserError(err)) return null;
  switch (err.type) {
    case 'entity.parse.failed':
      return new HttpError(400, `Malformed JSON body: ${err.message}`, 'invalid_body');
    case 'entity.too.large':
      return new HttpError(413, `Request body is larger than the ${String(err.limit)} byte limit`, 'payload_too_large');
    case 'encoding.unsupported':
      return new HttpError(415, `Unsupported content encoding "${String(err.encoding)}"`, 'unsupported_media_type');
    case 'charset.unsupported':
      return new HttpError(415, `Unsupported charset "${String(err.charset)}"`, 'unsupported_media_type');
    case 'request.aborted':
      return new HttpError(400, 'Request aborted by the client before the body was complete', 'invalid_body');
    case 'entity.verify.failed':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new HttpError(400, `Invalid request body: ${err.message}`, 'invalid_body');
    default:
      return null;
  }
}
