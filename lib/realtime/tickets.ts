import { randomBytes } from 'node:crypto';
import type { Collection, Db, ObjectId } from 'mongodb';
import { hashKey } from '../http/request.js';

/**
 * Stream tickets: a browser signed in with an account cannot send its token on an EventSource
 * (no headers), and a token in a URL ends up in logs. So it trades the token (or the write key)
 * for a ticket that opens one stream, soon: kept hashed in the database, so any app process can
 * take it, and taken by one atomic delete, so it opens one stream only.
 */
interface TicketDoc {
  /** The ticket's hash. */
  _id: string;
  bucket_id: ObjectId;
  expires_at: Date;
}

function ticketsCollection(db: Db): Collection<TicketDoc> {
  return db.collection<TicketDoc>('stream_tickets');
}

/** Idempotent, like every index of the service (lib/db/indexes.ts). */
export async function ensureTicketIndexes(db: Db): Promise<void> {
  await ticketsCollection(db).createIndex({ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expiry' }, undefined);
}

/** A new ticket for the Bucket, valid for `ttlMs`. */
export async function issueTicket(
  db: Db,
  bucketId: ObjectId,
  ttlMs: number,
  now = new Date(),
): Promise<{ ticket: string; expires_at: Date }> {
  const ticket = randomBytes(24).toString('base64url');
  const expires_at = new Date(now.getTime() + ttlMs);
  await ticketsCollection(db).insertOne({ _id: hashKey(ticket), bucket_id: bucketId, expires_at });
  return { ticket, expires_at };
}

/** Takes the ticket: true once, while it is the Bucket's and unexpired (the TTL index removes it later). */
export async function takeTicket(db: Db, bucketId: ObjectId, ticket: string, now = new Date()): Promise<boolean> {
  const taken = await ticketsCollection(db).findOneAndDelete({ _id: hashKey(ticket), bucket_id: bucketId });
  return taken !== null && taken.expires_at > now;
}
