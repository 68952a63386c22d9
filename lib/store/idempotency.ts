import { ObjectId, type Collection, type Db } from 'mongodb';
import { HttpError } from '../errors/http-errors.js';
import { isDuplicateKey } from '../errors/mongo-errors.js';

/**
 * The requests made with an Idempotency-Key (lib/middleware/idempotency.ts), one record per Bucket and
 * key: what the request was (route and body hash), who is answering it, and its answer once it
 * succeeded. Records live 24 hours (a TTL index, and every read treats a lapsed one as absent).
 */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/**
 * How long a record stays with the attempt answering it when that attempt's process may be gone.
 * It is taken only after the body was read and authorized, so it covers the handler's own work,
 * which every query bounds to seconds; a record of a process that died is taken over after this.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/** Answers beyond this are not kept (a document holds 16 MB); a retry is then told so (409). */
export const MAX_KEPT_ANSWER_CHARS = 8 * 1024 * 1024;

export interface KeptAnswer {
  status: number;
  content_type: string;
  /** Null when the body was too large to keep. */
  body: string | null;
}

export interface IdempotencyDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  key: string;
  /** Method and the matched route's pattern: the same key on another route is another request. */
  route: string;
  /** sha256 of the body (and uploaded file). */
  fingerprint: string;
  /** The attempt answering it now (or that answered it), and the process that runs it. */
  attempt: ObjectId;
  owner: string;
  lease_until: Date;
  answer?: KeptAnswer;
  created_at: Date;
  expires_at: Date;
}

export function idempotencyCollection(db: Db): Collection<IdempotencyDoc> {
  return db.collection<IdempotencyDoc>('idempotency_keys');
}

export async function ensureIdempotencyIndexes(db: Db): Promise<void> {
  const records = idempotencyCollection(db);
  await records.createIndex({ bucket_id: 1, key: 1 }, { unique: true, name: 'bucket_key_unique' }, undefined);
  await records.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expiry' }, undefined);
}

/** This process, as the owner of the attempts it runs. */
const PROCESS = new ObjectId().toHexString();
/**
 * The attempts this process is running. A record this process owns whose attempt is not here
 * was left by a request that ended without settling it (the engine failed under it): a retry
 * may take it over at once instead of waiting out the lease.
 */
const running = new Set<string>();

export interface KeyedRequest {
  bucketId: ObjectId;
  key: string;
  route: string;
  fingerprint: string;
}

/** The record a running request holds, and its attempt on it. */
export interface Ticket {
  id: ObjectId;
  attempt: ObjectId;
}

export type Claim =
  /** This request runs: it holds the record until it settles it with keepAnswer or releaseKey. */
  | { kind: 'run'; ticket: Ticket }
  | { kind: 'replay'; answer: KeptAnswer }
  | { kind: 'mismatch' }
  | { kind: 'busy'; retryAfterS: number };

/** Races with other claims are settled by the unique index and compare-and-set; a few rounds end them. */
const CLAIM_ROUNDS = 4;

export async function claimKey(db: Db, r: KeyedRequest): Promise<Claim> {
  const records = idempotencyCollection(db);
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    const now = new Date();
    const id = new ObjectId();
    const attempt = new ObjectId();
    const lease = { attempt, owner: PROCESS, lease_until: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS) };
    try {
      await records.insertOne({
        _id: id,
        bucket_id: r.bucketId,
        key: r.key,
        route: r.route,
        fingerprint: r.fingerprint,
        ...lease,
        created_at: now,
        expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      });
      return run({ id, attempt });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const found = await records.findOne({ bucket_id: r.bucketId, key: r.key });
    if (!found) continue;
    if (found.expires_at <= now) {
      // Lapsed but not yet removed by the TTL monitor: forgotten, as it would be a minute later.
      await records.deleteOne({ _id: found._id, expires_at: found.expires_at });
      continue;
    }
    if (found.route !== r.route || found.fingerprint !== r.fingerprint) return { kind: 'mismatch' };
    if (found.answer) return { kind: 'replay', answer: found.answer };
    const abandoned = found.owner === PROCESS && !running.has(found.attempt.toHexString());
    if (!abandoned && found.lease_until > now) {
      const retryAfterS = found.owner === PROCESS ? 1 : Math.ceil((found.lease_until.getTime() - now.getTime()) / 1000);
      return { kind: 'busy', retryAfterS: Math.max(1, retryAfterS) };
    }
    const taken = await records.updateOne(
      { _id: found._id, attempt: found.attempt, answer: { $exists: false } },
      { $set: lease },
    );
    if (taken.modifiedCount === 1) return run({ id: found._id, attempt });
  }
  // Every round lost a race to another claim of the same key: it is in flight somewhere.
  return { kind: 'busy', retryAfterS: 1 };
}

function run(ticket: Ticket): Claim {
  running.add(ticket.attempt.toHexString());
  return { kind: 'run', ticket };
}

/** Keeps a successful answer for the key's retries. Only the attempt holding the record writes it. */
export async function keepAnswer(db: Db, { id, attempt }: Ticket, answer: KeptAnswer): Promise<void> {
  try {
    const kept =
      answer.body !== null && answer.body.length > MAX_KEPT_ANSWER_CHARS ? { ...answer, body: null } : answer;
    await idempotencyCollection(db).updateOne(
      { _id: id, attempt, answer: { $exists: false } },
      { $set: { answer: kept } },
    );
  } finally {
    running.delete(attempt.toHexString());
  }
}

/** Gives the key back after a refusal (4xx), which wrote nothing: a retry runs again. */
export async function releaseKey(db: Db, { id, attempt }: Ticket): Promise<void> {
  try {
    await idempotencyCollection(db).deleteOne({ _id: id, attempt, answer: { $exists: false } });
  } finally {
    running.delete(attempt.toHexString());
  }
}

/**
 * Lets go of the record after a failure (5xx), which may have written part of its work: the
 * record stays, so a retry is still held to the same request, and takes it over at once.
 */
export function abandonKey({ attempt }: Ticket): void {
  running.delete(attempt.toHexString());
}

/** The same key with another request. */
export function keyReused(key: string): HttpError {
  return new HttpError(
    422,
    `Idempotency-Key '${key}' was already used with another request (another route or body) in the last 24 hours: use a new key`,
    'idempotency_key_reused',
  );
}
