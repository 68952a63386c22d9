import type { HttpServerSettings } from '../config.js';
import { BadRequestError, HttpError, PayloadTooLargeError } from '../errors/http-errors.js';

/** Node's default, kept on purpose: the request line and all headers together, in bytes. */
export const MAX_HEADER_BYTES = 16 * 1024;

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** The 408 for a request that did not arrive within the headers or whole-request time limit. */
export function requestTimeout(settings: HttpServerSettings): HttpError {
  const limits = [
    settings.headersTimeoutMs > 0 ? `the headers within ${seconds(settings.headersTimeoutMs)}` : null,
    settings.requestTimeoutMs > 0 ? `the whole request within ${seconds(settings.requestTimeoutMs)}` : null,
  ].filter((limit) => limit !== null);
  return new HttpError(408, `The request did not arrive in time: ${limits.join(' and ')}`, 'request_timeout');
}

/** The 408 for a request whose body stopped arriving. */
export function idleTimeout(settings: HttpServerSettings): HttpError {
  return new HttpError(
    408,
    `Nothing arrived for ${seconds(settings.idleTimeoutMs)} while the request was being sent`,
    'request_timeout',
  );
}

/**
 * What to answer when Node's HTTP parser or its request timers give up on a connection (the
 * `clientError` event), in place of Node's answers without a body. Null: there is nobody to answer.
 */
export function clientErrorAnswer(err: NodeJS.ErrnoException, settings: HttpServerSettings): HttpError | null {
  switch (err.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'HPE_HEADER_OVERFLOW':
      return new HttpError(
        431,
        `The URL and headers together are over ${MAX_HEADER_BYTES} bytes; shorten the URL or the headers`,
        'headers_too_large',
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new PayloadTooLargeError('The chunk extensions of the request body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return requestTimeout(settings);
    default:
      return new BadRequestError(`Malformed HTTP request: ${parserReason(err)}`);
  }
}

/** llhttp says what it tripped on in `reason` ("Invalid method encountered"). */
function parserReason(err: NodeJS.ErrnoException): string {
  const reason = (err as { reason?: unknown }).reason;
  return typeof reason === 'string' && reason !== '' ? reason : (err.code ?? err.message);
}
