import type { Db } from 'mongodb';
import { HttpError } from '../errors/http-errors.js';
import { readOptions } from '../services/query-time-limit.js';
import { emailKey } from './store.js';

export const MAX_FAILED_LOGINS = 10;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

interface FailureDoc {
  _id: string;
  count: number;
  window_start: Date;
}

const failures = (db: Db) => db.collection<FailureDoc>('login_failures');

/**
 * Failed logins per e-mail (known or not, so the throttle itself does not tell which exist),
 * kept in MongoDB so every process counts the same attempts.
 */
export async function assertLoginAllowed(db: Db, email: string, now = new Date()): Promise<void> {
  const doc = await failures(db).findOne({ _id: emailKey(email) }, readOptions(db));
  if (!doc || doc.count < MAX_FAILED_LOGINS) return;
  const reopens = doc.window_start.getTime() + LOGIN_WINDOW_MS;
  if (reopens <= now.getTime()) return;
  const retryAfter = Math.max(1, Math.ceil((reopens - now.getTime()) / 1000));
  throw new HttpError(
    429,
    `Too many failed logins for this e-mail: more than ${MAX_FAILED_LOGINS} in 15 minutes; retry after ${retryAfter} s`,
    'login_throttled',
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}

export async function recordFailedLogin(db: Db, email: string, now = new Date()): Promise<void> {
  const _id = emailKey(email);
  const windowOpen = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const inWindow = await failures(db).updateOne({ _id, window_start: { $gt: windowOpen } }, { $inc: { count: 1 } });
  if (inWindow.matchedCount === 0) {
    await failures(db).updateOne({ _id }, { $set: { count: 1, window_start: now } }, { upsert: true });
  }
}

export async function clearFailedLogins(db: Db, email: string): Promise<void> {
  await failures(db).deleteOne({ _id: emailKey(email) });
}
