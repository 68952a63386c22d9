import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Db } from 'mongodb';
import { BadRequestError, HttpError } from '../errors/http-errors.js';
import { removeOriginal } from '../store/files.js';
import { requireWrite } from './authenticate.js';
import { bucketOf } from '../http/request.js';
import { storedUpload } from './upload.js';
import { matchedRouteOf } from '../routes/access.js';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '../http/idempotency-headers.js';
import type { CreateIdempotency } from '../objects/write/object-idempotency.js';
import {
  abandonKey,
  claimKey,
  keepAnswer,
  keyReused,
  releaseKey,
  type KeptAnswer,
  type Ticket,
} from '../store/idempotency.js';

/**
 * `Idempotency-Key` on the POSTs that write to a Bucket (takesIdempotencyKey, route-table.ts):
 * - the first request with a key runs; a 2xx answer is kept 24 hours (idempotency-store.ts);
 * - the same key with the same request (route, Bucket, body; an upload's file too) answers the
 *   kept status and body again with `Idempotent-Replayed: true`, and writes nothing;
 * - the same key with another request is 422 idempotency_key_reused; while the first is still
 *   running, 409 conflict with Retry-After;
 * - a refusal (4xx) is not kept: the key is free again, and a retry runs again; so does a retry
 *   after a failure (5xx), still held to the same request.
 * Object creates also carry the key in the Object itself (object-idempotency.ts), so a retry
 * after a crash between the Object's write and the kept answer finds the Object, not a new one.
 * It runs just before the route's own handler: the body is read and the credential checked
 * (including its role's checks of the body), so the same key with the same body can only
 * replay an answer to a request this credential could have made itself.
 */

/** 1 to 255 visible ASCII characters: no spaces, so two headers joined by ", " are refused too. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

const noop = () => undefined;

interface KeyLocals {
  idempotency?: CreateIdempotency;
}

/** The request's key for a create to carry (lib/objects/write/object-writes.ts), if it sent one. */
export function idempotencyOf(res: Response): CreateIdempotency | undefined {
  return (res.locals as KeyLocals).idempotency;
}

/** The request as far as its key is concerned: its route, its body, and an uploaded file's bytes. */
function fingerprintOf(req: Request, route: string): string {
  const hash = createHash('sha256').update(`${route}\0${JSON.stringify(req.body ?? null)}`);
  const stored = storedUpload(req);
  if (stored) hash.update(`\0file:${stored.original_name}\0${stored.type}\0${stored.size}\0${stored.sha256}`);
  else if (req.file?.buffer) hash.update('\0file:').update(req.file.buffer);
  return hash.digest('hex');
}

/**
 * An upload is authorized by its own handler, after the form (a `write_key` field may follow
 * the file): until then its key takes no part, and the handler refuses it as it would anyway.
 * Every other route checked its credential before this runs.
 */
function authorized(req: Request, res: Response): boolean {
  if (!storedUpload(req)) return true;
  try {
    requireWrite(req, res, noop);
    return true;
  } catch {
    return false;
  }
}

function replay(res: Response, answer: KeptAnswer, key: string): void {
  if (answer.body === null) {
    throw new HttpError(
      409,
      `The request with Idempotency-Key '${key}' succeeded (${answer.status}), but its answer was too large to keep: read the result instead`,
      'conflict',
    );
  }
  res.status(answer.status).type(answer.content_type).set(REPLAYED_HEADER, 'true').send(answer.body);
}

/**
 * Settles the key as the answer goes out, before it is sent: a client retrying the moment it
 * has the answer finds it kept. If the database fails here, the record stays with this
 * process's finished attempt, and the next retry takes it over (idempotency-store.ts).
 */
function settleOnSend(db: Db, res: Response, ticket: Ticket): void {
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    res.send = send;
    const status = res.statusCode;
    // Every answer here is sendJson's text.
    let settled = Promise.resolve();
    if (status >= 200 && status < 300 && typeof body === 'string') {
      settled = keepAnswer(db, ticket, { status, content_type: res.get('Content-Type') ?? '', body });
    } else if (status >= 400 && status < 500) {
      settled = releaseKey(db, ticket);
    } else {
      abandonKey(ticket);
    }
    void settled
      .catch(noop)
      .then(() => send(body))
      .catch(noop);
    return res;
  };
}

/** The key check mounted before the handler of every route that takes a key (lib/registry/mount.ts). */
export function idempotencyKeys(db: Db): RequestHandler {
  return async (req, res, next) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (key === undefined || !authorized(req, res)) {
      next();
      return;
    }
    const upload = storedUpload(req);
    // An answer that does not run the handler leaves the upload's stored file to no media item.
    const discard = () => (upload ? removeOriginal(db, upload.file_id).catch(noop) : Promise.resolve());
    if (!VALID_KEY.test(key)) {
      await discard();
      throw new BadRequestError(
        `${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters (no spaces), got ${JSON.stringify(key.slice(0, 40))}`,
      );
    }
    const route = `${req.method} ${matchedRouteOf(res)?.pattern ?? req.path}`;
    const fingerprint = fingerprintOf(req, route);
    const claim = await claimKey(db, { bucketId: bucketOf(res)._id, key, route, fingerprint }).catch(
      async (err: unknown) => {
        await discard();
        throw err;
      },
    );
    if (claim.kind !== 'run') await discard();
    switch (claim.kind) {
      case 'replay':
        replay(res, claim.answer, key);
        return;
      case 'mismatch':
        throw keyReused(key);
      case 'busy':
        throw new HttpError(
          409,
          `A request with ${IDEMPOTENCY_HEADER} '${key}' is still running: retry after Retry-After seconds`,
          'conflict',
          { headers: { 'Retry-After': String(claim.retryAfterS) } },
        );
      case 'run':
        settleOnSend(db, res, claim.ticket);
        (res.locals as KeyLocals).idempotency = {
          key,
          request: fingerprint,
          replayed: () => res.set(REPLAYED_HEADER, 'true'),
        };
        next();
    }
  };
}
