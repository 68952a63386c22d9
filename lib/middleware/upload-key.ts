import type { Request, Response } from 'express';
import { retryLater } from '../errors/retry-later.js';
import { requireWrite } from './authenticate.js';
import { bearerKey } from '../http/request.js';
import { bucketOf } from '../http/request.js';
import type { PerClientLimit } from '../http/per-client-limit.js';

const KEYLESS_RETRY_AFTER_SECONDS = 5;

const noop = () => undefined;

/**
 * Runs as the file part of an upload begins, before a byte of it is stored. A key in the
 * Authorization header was checked before the body was read; a `write_key` form field sent
 * before the file is checked now, so a wrong one costs no storage. When no key has been seen
 * yet (legacy clients send `write_key` after the file), the file must be stored before the key
 * can be checked, so such uploads are bounded per client address: more at once get 429.
 */
export function checkKeyBeforeStoring(keyless: PerClientLimit): (req: Request, res: Response) => void {
  return (req, res) => {
    if (bucketOf(res).write_key_hash === null || bearerKey(req) !== undefined) return;
    const body = req.body as Record<string, unknown> | undefined;
    if (typeof body?.write_key === 'string') {
      requireWrite(req, res, noop);
      return;
    }
    const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const release = keyless.tryAcquire(client);
    if (!release) {
      throw retryLater(
        429,
        `Too many uploads without a write key from this address at once (at most ${keyless.max}): ` +
          'send Authorization: Bearer <write key>, or the write_key field before the file, or retry later',
        'rate_limited',
        KEYLESS_RETRY_AFTER_SECONDS,
      );
    }
    res.once('close', release);
  };
}
